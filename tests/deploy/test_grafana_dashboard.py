"""deploy/grafana-dashboard.json shows every figure /metrics gives, and only those."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families
from server_harness import make_settings, running

DASHBOARD = Path(__file__).resolve().parents[2] / "deploy" / "grafana-dashboard.json"
TOKEN = "d" * 40
SUFFIXES = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum"), "gauge": ("",)}


def test_the_dashboard_has_a_panel_for_each_figure_and_names_no_other(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, metrics_token=TOKEN)) as server:
        answer = httpx.get(f"{server.url}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    families = {
        family.name: {family.name + suffix for suffix in SUFFIXES[family.type]}
        for family in text_string_to_metric_families(answer.text)
        if family.name.startswith("meeple_")
    }
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    named_by_panel = [
        set(re.findall(r"\bmeeple_\w+", " ".join(t["expr"] for t in panel["targets"])))
        for panel in dashboard["panels"]
    ]
    named = set().union(*named_by_panel)
    samples = set().union(*families.values())
    assert named <= samples, f"the dashboard names figures the server has not: {named - samples}"
    unshown = [name for name, its in families.items() if not its & named]
    assert unshown == [], f"no panel shows {unshown}"
    assert all(names for names in named_by_panel)
    assert len({panel["id"] for panel in dashboard["panels"]}) == len(dashboard["panels"])
