"""The action bench's instruction count reads callgrind's own total."""

from __future__ import annotations

import pytest

from tests.load.actionbench import callgrind_total

REPORT = """# callgrind format
version: 1
creator: callgrind-3.19.0
events: Ir
fn=(1) main
0 12
summary: 6563033673
totals: 6563033673
"""


def test_the_count_is_callgrinds_summary_line() -> None:
    assert callgrind_total(REPORT) == 6_563_033_673


def test_a_report_without_a_total_is_an_error_not_zero() -> None:
    with pytest.raises(ValueError, match="no summary line"):
        callgrind_total("events: Ir\nfn=(1) main\n0 12\n")
