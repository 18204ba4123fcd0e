"""Python's cyclic garbage collector, tuned for a web process.

An action allocates tens of thousands of containers (the state decoded, the engine's new state,
the seat views), so at Python's default threshold (a young collection every 700 new containers,
and a full one every hundred of those) the collector ran about twice an action and cost 1.6-2.2
ms of the ~20 ms an action took in one process, a full pass walking every module, setting and
URL pattern loaded at startup (180,000 objects). Frozen, those are never walked again; with a
young collection every 10,000 containers, the collector's share fell to 0.4-0.6 ms an action
(python -m tests.load.actionbench, docs/operations.md "Speed").
"""

import gc

YOUNG_COLLECTION_EVERY = 10_000  # new containers (Python's default: 700)


def collector_tune_for_serving() -> None:
    """Call once the process has loaded what it keeps for its whole life."""
    gc.collect()  # garbage left by the imports is freed, not frozen
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, middle, old)
