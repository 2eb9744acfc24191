// The browser tests, in one process: the suites share one Chromium (launched once, not once per file) and one
// compiled copy of the gateway; each suite starts its own gateway, each test opens its own page or context.
// Suites are modules named *.suite.ts here, so the runner does not also start them as files of their own.

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { chromiumMissing, closeSharedChromium } from '../helpers/browser.js';
import './dashboard.suite.js';
import './dashboard-details.suite.js';
import './observability.suite.js';
import './pro-app-calls.suite.js';

const missing = chromiumMissing();
if (missing && process.env.SJ_BROWSER_TESTS === 'required') {
  test('Chromium is installed (SJ_BROWSER_TESTS=required)', () => assert.fail(missing));
}

after(closeSharedChromium);
