"""/metrics as the two engines write it: vLLM's counters and llama-server's (`--metrics`) read the same way."""

from recorder import metrics
from tests.browser_fixtures import ROOT

LLAMA = ROOT / "tests" / "fixtures" / "metrics" / "llama-server-b1-0c1e570.txt"


def test_llama_server_counters_read_like_vllms() -> None:
    """The fixture is a real llama-server's /metrics after one request of 16 tokens with a draft model
    (its response said draft_n 25, draft_n_accepted 8)."""
    snap = metrics.parse(LLAMA.read_text())
    assert (snap.drafts, snap.draft_tokens, snap.accepted) == (7, 25, 8)
    assert snap.per_position == (4, 2, 1, 1)
    assert snap.has_spec and snap.busy == 0
    empty = metrics.Snapshot(0, 0, 0, 0, 0, (), True)
    spec, note = metrics.spec_delta(empty, snap)
    assert note is None and spec == {"drafts": 7, "draft_tokens": 25, "accepted": 8, "per_position": [4, 2, 1, 1]}


def test_queue_gauges_of_both_engines_make_the_idle_check() -> None:
    vllm = 'vllm:num_requests_running{engine="0"} 2.0\nvllm:num_requests_waiting{engine="0"} 1.0\n'
    llama = "llamacpp:requests_processing 1\nllamacpp:requests_deferred 3\n"
    assert metrics.parse(vllm).busy == 3 and metrics.parse(llama).busy == 4
    assert not metrics.parse(vllm).has_spec  # vLLM without speculation exports no spec counters


def test_other_engines_names_are_not_read() -> None:
    text = "sglang:spec_decode_num_drafts_total 9\nllamacpp:n_decode_total 8\n"
    snap = metrics.parse(text)
    assert not snap.has_spec and snap.drafts == 0
