// Black-76 / Black-Scholes prices, used to give options and warrants references that agree with their underlying.

/** Standard normal cumulative distribution (Abramowitz-Stegun 7.1.26, error < 1.5e-7). */
export function normalCdf(x: number): number {
  const t = 1 / (1 + (0.3275911 * Math.abs(x)) / Math.SQRT2);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

export interface OptionInputs {
  /** Forward (futures) or spot price of the underlying. */
  underlying: number;
  strike: number;
  /** Years to expiry; at most a day's worth of time is kept at expiry so prices stay finite. */
  years: number;
  volatility: number;
  right: 'C' | 'P';
}

/** Black-76 price on a forward, rates ignored (TAIFEX options are priced off the futures). */
export function black76(inputs: OptionInputs): number {
  const { underlying: f, strike: k, volatility } = inputs;
  const t = Math.max(inputs.years, 1 / 365 / 4);
  const sd = volatility * Math.sqrt(t);
  const d1 = (Math.log(f / k) + (sd * sd) / 2) / sd;
  const d2 = d1 - sd;
  return inputs.right === 'C' ? f * normalCdf(d1) - k * normalCdf(d2) : k * normalCdf(-d2) - f * normalCdf(-d1);
}

/** A volatility smile: higher implied volatility away from the money, skewed to the downside. */
export function smileVolatility(atmVolatility: number, underlying: number, strike: number): number {
  const moneyness = Math.log(strike / underlying);
  return atmVolatility * (1 + 1.8 * moneyness * moneyness - 0.6 * moneyness);
}
