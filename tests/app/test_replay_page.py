"""The replay page's Python side, through AppTest: selection, query params, uploads, the player's payload."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from specreplay.recording.format import load
from specreplay.replay.arms import parse_sim, sim_pane
from specreplay.replay.default import choose
from specreplay.replay.html import payload_json, player_html
from specreplay.replay.panes import median_repeat
from specreplay.replay.payload import player_payload
from specreplay.replay.source import load_upload
from specreplay.replay.timeline import track_of
from tests.apptest_helpers import open_page, shown
from tests.browser_fixtures import ROOT
from tests.replay_recordings import write_recording


@pytest.fixture
def recordings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A recordings folder with one test recording, used instead of the bundled ones."""
    write_recording(tmp_path / "test-basic.jsonl")
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(tmp_path))
    return tmp_path


def payload(at) -> dict:
    """The JSON the page handed the player, read back out of the iframe's HTML."""
    iframes = at.get("iframe")
    assert len(iframes) == 1, "expected exactly one player"
    m = re.search(r'<script type="application/json" id="specreplay-payload">(.*?)</script>', iframes[0].proto.srcdoc)
    assert m, "no payload in the player"
    return json.loads(m.group(1))


def texts(elements) -> str:
    return "\n".join(shown(str(e.value)) for e in elements)


def test_defaults_follow_the_written_rule_at_each_arms_median_repeat(recordings: Path) -> None:
    at = open_page("replay", "en")
    assert not at.exception, at.exception
    rule = choose([recordings / "test-basic.jsonl"])
    assert rule is not None and rule.arms == ("base", "q4", "spec")  # reference, 4-bit, 4-bit + drafter
    assert at.multiselect[0].value == ["base", "q4", "spec"]
    data = payload(at)
    rec = load(recordings / "test-basic.jsonl")
    for pane, arm in zip(data["panes"], ["base", "q4", "spec"]):
        run = median_repeat(rec, arm, rule.prompt)
        assert run.repeat == 1
        assert pane["kind"] == "measured"
        assert pane["t_us"] == list(track_of(run).t_us)
        assert pane["key"] == f"{arm}/{rule.prompt}/1"
    # the longest pane ends within 5 s, so the replay opens slowed down (specreplay.replay.playback.default_speed)
    assert data["speed"] == 0.5 and data["lang"] == "en" and data["reference"] == 0
    assert dict(at.query_params) | {} == {"lang": "en", "recording": "test-basic", "prompt": rule.prompt,
                                         "arms": "base,q4,spec"}
    assert "recorded on its own, one after another" in texts(at.info)


def test_the_note_about_sequential_recording_is_korean_by_default(recordings: Path) -> None:
    at = open_page("replay", "ko")
    assert "동시에 돌린 것은 아닙니다" in texts(at.info)
    assert payload(at)["labels"]["play"] == "재생"


def test_query_params_choose_prompt_arms_repeat_and_speed(recordings: Path) -> None:
    at = open_page("replay", "en", recording="test-basic", prompt="code-1", arms="q4,sim:p000-dflash2",
                   repeat="2", speed="0.5")
    assert not at.exception, at.exception
    data = payload(at)
    assert data["speed"] == 0.5
    assert [p["key"] for p in data["panes"]][0] == "q4/code-1/2"
    sim = data["panes"][1]
    assert sim["kind"] == "simulated" and "(simulated)" in sim["label"]
    assert sim["details"]["decode tok/s"] == "458.5" and "article 000" in sim["details"]["source"]
    assert at.query_params["repeat"] == "2" and at.query_params["arms"] == "q4,sim:p000-dflash2"


def test_changing_the_selection_updates_the_url(recordings: Path) -> None:
    at = open_page("replay", "en")
    at.multiselect[0].set_value(["spec", "sim:p000-bf16"]).run()
    assert at.query_params["arms"] == "spec,sim:p000-bf16"
    at.selectbox(key="replay_prompt::test-basic").set_value("code-1").run()
    assert at.query_params["prompt"] == "code-1"
    keys = [p["key"] for p in payload(at)["panes"]]
    assert keys[0] == "spec/code-1/1" and keys[1].startswith("sim/")  # the arms carry over to the new prompt


def test_bad_query_values_warn_and_fall_back(recordings: Path) -> None:
    at = open_page("replay", "en", arms="nope,q4,spec", speed="3")
    assert not at.exception, at.exception
    warnings = texts(at.warning)
    assert "nope" in warnings and "speed '3'" in warnings and "playing at 0.5×" in warnings  # the rule's speed
    data = payload(at)
    assert data["speed"] == 0.5 and [p["key"].split("/")[0] for p in data["panes"]] == ["q4", "spec"]


@pytest.mark.parametrize("speed", ["2", "3", "0.5"])
def test_the_page_reads_speed_and_never_writes_it(recordings: Path, speed: str) -> None:
    """?speed= has one writer, the player's embed.js (a click in the player's frame never reaches the page): the page
    plays a valid one, warns about an invalid one, and leaves the URL's text as it is, also across a rerun."""
    at = open_page("replay", "en", speed=speed)
    assert not at.exception, at.exception
    assert payload(at)["speed"] == (0.5 if speed == "3" else float(speed))
    assert at.query_params["speed"] == speed
    at.selectbox(key="replay_prompt::test-basic").set_value("code-1").run()
    assert not at.exception and at.query_params["speed"] == speed


def test_a_bad_custom_simulated_arm_in_the_url_names_the_problem(recordings: Path) -> None:
    at = open_page("replay", "en", arms="q4,sim:100/0.5/1.5/4/200")
    assert "α must be between 0 and 1" in texts(at.warning)
    assert not at.exception


def test_one_arm_asks_for_more(recordings: Path) -> None:
    at = open_page("replay", "en", arms="q4")
    assert not at.get("iframe")
    assert "Choose 2–4 arms" in texts(at.info)


def test_empty_recordings_folder_explains_and_offers_simulated_arms(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(tmp_path))
    at = open_page("replay", "en")
    assert not at.exception, at.exception
    assert "No bundled recordings yet" in texts(at.info)
    data = payload(at)
    assert [p["kind"] for p in data["panes"]] == ["simulated"] * 3
    assert [p["rate"] for p in data["panes"]] == pytest.approx([97.1, 136.7, 458.5], rel=0.05)


def _upload(recordings: Path, name: str, data: bytes):
    at = open_page("replay", "en")
    at.radio(key="replay_source").set_value("upload").run()
    at.file_uploader[0].set_value((name, data, "application/octet-stream")).run()
    return at


def test_uploading_a_good_recording_replays_it_without_a_share_link(recordings: Path) -> None:
    at = _upload(recordings, "mine.jsonl", (recordings / "test-basic.jsonl").read_bytes())
    assert not at.exception and not at.error
    assert [p["kind"] for p in payload(at)["panes"]] == ["measured"] * 3  # its arms, not the simulated presets
    assert "recording" not in at.query_params


def test_an_upload_is_parsed_once_not_on_every_interaction(recordings: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from specreplay.replay import source as replay_source

    calls = []
    real = replay_source.load_upload
    monkeypatch.setattr(replay_source, "load_upload", lambda *a: calls.append(1) or real(*a))
    at = _upload(recordings, "mine.jsonl", (recordings / "test-basic.jsonl").read_bytes())
    at.run()
    at.run()
    assert not at.exception and len(calls) == 1


def test_the_page_keeps_no_parsed_upload_once_the_upload_cache_lets_it_go(recordings: Path) -> None:
    """The widgets' format functions stay in a visitor's session (120 s after a disconnect): they must not hold the
    parsed file, or a server keeps every recent upload however the upload cache drops them."""
    import gc

    from specreplay.recording.format import Recording
    from specreplay.replay import uploads

    at = _upload(recordings, "kept.jsonl", (recordings / "test-basic.jsonl").read_bytes())
    assert not at.exception and payload(at)["panes"]
    uploads.clear()
    gc.collect()
    assert not [o for o in gc.get_objects() if isinstance(o, Recording) and str(o.path).endswith("kept.jsonl")]
    assert "replay_arms::upload:kept.jsonl::code-1" in at.session_state  # the session and its widgets are still there


def test_uploading_a_truncated_file_names_the_cut_line(recordings: Path) -> None:
    raw = (recordings / "test-basic.jsonl").read_bytes()
    lines = raw.split(b"\n")
    cut = b"\n".join(lines[:5]) + b"\n" + lines[5][: len(lines[5]) // 2]  # line 6 cut mid-write
    at = _upload(recordings, "cut.jsonl", cut)
    assert not at.exception
    assert len(at.error) == 1
    assert shown(at.error[0].value).startswith("cut.jsonl:6: ") and "truncated" in shown(at.error[0].value)
    assert not at.get("iframe") or all(p["kind"] == "simulated" for p in payload(at)["panes"])


def test_uploading_a_wrong_field_names_line_and_field(recordings: Path) -> None:
    lines = (recordings / "test-basic.jsonl").read_text().splitlines()
    run = json.loads(lines[3])
    run["events"][2]["n"] = "three"
    lines[3] = json.dumps(run)
    at = _upload(recordings, "bad.jsonl", ("\n".join(lines) + "\n").encode())
    assert len(at.error) == 1
    assert shown(at.error[0].value).startswith("bad.jsonl:4: field 'events[2].n': expected integer, got str")


def test_uploading_something_that_is_not_text_or_too_big(recordings: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert shown(_upload(recordings, "x.jsonl", b"\xff\xfe\x00").error[0].value).startswith("x.jsonl: not UTF-8")
    monkeypatch.setattr("specreplay.replay.source.MAX_UPLOAD_BYTES", 100)
    big = _upload(recordings, "big.jsonl", b"{}\n" * 200)
    assert "the limit is" in big.error[0].value


def test_the_largest_bundled_recording_uploads_as_it_is() -> None:
    """What the app offers for download can be uploaded back: the limit leaves room for a multi-MB recording."""
    largest = max((ROOT / "recordings").glob("*.jsonl"), key=lambda p: p.stat().st_size)
    assert largest.stat().st_size > 2**20
    assert load_upload(largest.name, largest.read_bytes()).runs


def test_token_text_cannot_close_the_payload_script() -> None:
    pane = sim_pane("sim:p000-bf16", "simulated")
    data = player_payload([pane, pane])
    data["panes"][0]["text"][0] = "</script><img src=x onerror=alert(1)>"
    html = player_html(data)
    assert html.count("</script>") == 3  # import map, payload, player module: token text added none
    assert json.loads(payload_json(data))["panes"][0]["text"][0].startswith("</script>")


def test_simulated_arm_tokens_round_trip() -> None:
    spec = parse_sim("sim:250/0.4/0.6/5/300")
    assert parse_sim(spec.token()) == spec
    with pytest.raises(ValueError, match="tokens must be"):
        parse_sim("sim:250/0.4/0.6/5/0")
    with pytest.raises(ValueError, match="expected sim:"):
        parse_sim("sim:250/0.4")


@pytest.mark.parametrize(("query", "warning"), [
    ({"repeat": "9" * 5000}, None),  # int() would refuse it in Python's words: the median repeat is shown instead
    ({"repeat": "²"}, None),  # a digit to str.isdigit, not to int()
    ({"ref": "²"}, None),  # the same for the reference arm: the automatic reference is kept
    ({"ref": "9" * 5000}, None),
    ({"arms": "base,sim:1e-310/0.5/0.5/4/200"}, "tok/s must be 1–5000"),  # the step time overflowed the clock
    ({"arms": ",".join(["base"] + ["sim:x"] * 50_000)}, "expected sim:tok_s/ttft_s/alpha/gamma/tokens"),
])
def test_hostile_query_values_get_a_line_not_an_error(recordings: Path, query: dict, warning: str | None) -> None:
    at = open_page("replay", "en", **({"prompt": "chat-1"} if {"repeat", "ref"} & set(query) else {}), **query)
    assert not at.exception and not at.error, at.exception
    if warning:
        assert warning in texts(at.warning)
    if "repeat" in query:
        assert at.selectbox(key="replay_repeat::test-basic::chat-1").value == "median"
    if "ref" in query:  # the reference the page picks without a ?ref=
        assert payload(at)["reference"] == payload(open_page("replay", "en", prompt="chat-1"))["reference"]
    if query.get("arms", "").count("sim:x") > 1:  # only the link's first entries are read
        assert texts(at.warning).count("expected sim:") <= 16


def test_an_imported_load_test_plays_by_level_not_the_simulated_arms(recordings: Path) -> None:
    from specreplay.importers import vllm_bench
    from specreplay.importers.common import write_recording as import_recording
    from tests.bench_serve_file import write_bench_serve

    served = write_bench_serve(recordings.parent / "serve-c64.json")
    import_recording(recordings / "serve-c64.jsonl", vllm_bench.read(served))
    at = open_page("replay", "en", recording="serve-c64")
    assert not at.exception, at.exception
    data = payload(at)
    assert [(p["kind"], p["level"]) for p in data["panes"]] == [("imported", 64)]
    assert data["panes"][0]["label"].startswith("64 concurrent · ") and data["panes"][0]["system"]["n"]
    assert not any("simulated" in p["kind"] for p in data["panes"])


def test_a_sweep_by_level_and_a_chosen_reference_round_trip_the_url(recordings: Path) -> None:
    at = open_page("replay", "en", recording="test-basic", prompt="code-1", arms="base,q4,spec", ref="1")
    assert not at.exception, at.exception
    data = payload(at)
    assert data["reference"] == 1 and data["panes"][1]["ratio"] is None and data["panes"][0]["ratio"] < 1
    assert at.query_params["ref"] == "1"
