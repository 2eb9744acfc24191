"""The index analytics through the bridge: the subscribe keywords become the SDK's own ContributionRanking and
IndexComponentsProjection, the scripted session's events and snapshot carry only names the stub declares, and the
converters give the gateway's shapes; over the protocol, each stream is pushed after its subscribe."""

from __future__ import annotations

from pathlib import Path

import pytest
import shioaji as sj

from sjgate_bridge import answers, index_analytics
from sjgate_bridge.lookalike import LookAlike
from sjgate_bridge.scripted import ScriptedShioaji

from .helpers import Sidecar, scripted_env
from .test_conformance import _lookalikes, declared
from .test_protocol import LOGIN

INDEX = {"security_type": "IND", "exchange": "TSE", "code": "IX0001"}
TOP = {"kind": "ranking", "target": "component", "metric": "contribution", "order": "desc", "limit": 10, "group": None}
BREADTH = {"kind": "group_metric", "target": None, "metric": "breadth", "order": None, "limit": None, "group": None}


@pytest.mark.parametrize(("params", "value"), [
    ({"ranking": "abs10"}, None),
    ({"projection": TOP}, "rank/component/contribution/desc/10"),
    ({"projection": {**TOP, "metric": "amount", "group": "24"}}, "rank/component/amount/desc/10/group/24"),
    ({"projection": {**TOP, "target": "group", "metric": "breadth", "order": "abs_desc"}}, "rank/group/breadth/abs_desc/10"),
    ({"projection": BREADTH}, "groups/breadth"),
])
def test_subscribe_keywords_are_the_sdks_own_objects(params: dict, value: str | None) -> None:
    keywords = index_analytics.subscribe_keywords(sj, params)
    if value is None:
        assert keywords == {"ranking": sj.ContributionRanking.Abs10}
        return
    projection = keywords["projection"]
    assert projection.value == value
    assert index_analytics.projection_json(projection) == {**params["projection"], "limit": projection.limit}
    assert index_analytics.subscribe_keywords(sj, {}) == {}


def _session(tmp_path: Path) -> ScriptedShioaji:
    api = ScriptedShioaji(scenario={"state_path": str(tmp_path / "s.json"), "quotes": {"interval_ms": 3_600_000}})
    api.login("k", "s")
    return api


def test_scripted_events_declare_only_stub_names_and_convert(tmp_path: Path) -> None:
    api = _session(tmp_path)
    index = api.infos["IX0001"]
    from sjgate_bridge import scripted_index

    contribution = scripted_index.index_contribution(index, api.infos, sj.ContributionRanking.Top10)
    industry = scripted_index.industry_contribution(index, api.infos)
    ranking = scripted_index.index_components_update(index, api.infos, index_analytics.subscribe_keywords(
        sj, {"projection": TOP})["projection"])
    groups = scripted_index.index_components_update(index, api.infos, index_analytics.subscribe_keywords(
        sj, {"projection": BREADTH})["projection"])
    snapshot = api.index_components(api.Contracts.Indexs.get("IX0001") if hasattr(api.Contracts, "Indexs")
                                    else sj.BaseContract("IND", "TSE", "IX0001"))
    for event in (contribution, industry, ranking, groups, snapshot):
        for part in _lookalikes(event):
            assert set(part.fields()) <= declared(part.stub), (part.stub, set(part.fields()) - declared(part.stub))

    top = index_analytics.index_contribution_payload(contribution)
    assert list(top) == ["ranking", "code", "date", "time", "entries", "simtrade"]
    assert top["ranking"] == "top10" and top["code"] == "IX0001"
    assert top["entries"][0] == {"code": "2330", "price": 1005.0, "reference": 1000.0, "price_chg": 5.0,
                                 "pct_chg": 0.5, "points": 1.25}
    sums = index_analytics.industry_contribution_payload(industry)
    assert abs(sum(e["points"] for e in sums["entries"]) - sums["index_price_chg"]) < 1e-9
    assert sums["index_close"] == 23000.0 and "/" in sums["date"]
    ranked = index_analytics.index_components_payload(ranking)
    assert ranked["projection"] == TOP and ranked["market_phase"] == "continuous_trading"
    assert ranked["contract"] == {"security_type": "IND", "region": "TW", "exchange": "TSE", "code": "IX0001",
                                  "target_code": None}
    assert [e["value"] for e in ranked["entries"]] == [1.25, 0.0, -1.25]
    assert ranked["entries"][0]["price_source"] == "regular" and len(ranked["time"]) == 15
    grouped = index_analytics.index_components_payload(groups)
    assert grouped["unit"] == "breadth" and "entries" not in grouped
    assert [(g["category"], g["value"]) for g in grouped["groups"]] == [("17", -5000.0), ("24", 10000.0)]
    whole = answers.answer_json("index_components", snapshot)
    assert whole["weight_method"] == "reference_market_cap" and whole["refresh_state"] == "ready"
    assert sum(e["reference_weight_ppm"] for e in whole["entries"]) == 1_000_000
    assert sum(e["points"] for e in whole["entries"]) == sum(g["points"] for g in whole["groups"]) == 0
    assert isinstance(whole["entries"][0]["price"], float)
    api.logout()


def test_scripted_subscriptions_keep_each_view_apart(tmp_path: Path) -> None:
    api = _session(tmp_path)
    index = sj.BaseContract("IND", "TSE", "IX0001")
    api.subscribe(index, "index_contribution", ranking=sj.ContributionRanking.Top10)
    api.subscribe(index, "index_contribution", ranking=sj.ContributionRanking.Abs10)
    assert len(api.subscriptions) == 2
    api.unsubscribe(index, "index_contribution", ranking=sj.ContributionRanking.Top10)
    assert [key[1] for key in api.subscriptions] == ["indexcontribution|abs10"]
    with pytest.raises(sj.ShioajiValueError):
        api.subscribe(index, "index_contribution")
    with pytest.raises(sj.ShioajiValueError):
        api.subscribe(sj.BaseContract("STK", "TSE", "2330"), "industry_contribution")
    api.logout()


@pytest.fixture
def logged_in(tmp_path: Path):
    process = Sidecar(scripted_env(tmp_path, {"quotes": {"interval_ms": 20}}))
    process.result("login", LOGIN)
    yield process
    process.close()


def test_each_family_is_pushed_after_its_subscribe(logged_in: Sidecar) -> None:
    def pushed(name: str) -> dict:
        return logged_in.wait_event(lambda e: e["event"] == "quote" and e["data"]["name"] == name)["data"]["data"]

    assert logged_in.result("subscribe", {**INDEX, "quote_type": "IndexContribution", "ranking": "top10"}) == {}
    assert pushed("index_contribution")["ranking"] == "top10"
    logged_in.result("subscribe", {**INDEX, "quote_type": "IndustryContribution"})
    assert pushed("industry_contribution")["index_price_chg"] == 0
    logged_in.result("subscribe", {**INDEX, "quote_type": "IndexComponents", "projection": BREADTH})
    assert pushed("index_components")["unit"] == "breadth"
    snapshot = logged_in.result("call", {"name": "index_components", "params": {"index": INDEX}})
    assert [e["contract"]["code"] for e in snapshot["entries"]] == ["2330", "2884", "2890"]
    assert logged_in.result("unsubscribe", {**INDEX, "quote_type": "IndexComponents", "projection": BREADTH}) == {}


def test_a_lookalike_without_groups_is_a_ranking_update() -> None:
    update = LookAlike("IndexComponentsRankingUpdate", contract=sj.BaseContract("IND", "TSE", "IX0001"),
                       projection=index_analytics.subscribe_keywords(sj, {"projection": TOP})["projection"],
                       date=None, time=None, calculated_at=None, reference_date=None,
                       market_phase=sj.TwStockMarketPhase("closed"), simtrade=False, entries=[])
    assert index_analytics.index_components_payload(update)["entries"] == []
