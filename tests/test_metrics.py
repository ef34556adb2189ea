"""Metric code of the accuracy suite and calibration, on cases small enough to compute by hand."""

from __future__ import annotations

import pytest

from benchmarks.metrics import (Confusion, ErrorRates, accuracy, balanced_accuracy, best_threshold,
                                confusion_matrix, overlaps, predict_at, span_precision_recall,
                                threshold_for_unsafe_rate, threshold_grid)

T, F = True, False


def test_confusion_counts_and_rates():
    #            tp  fn  fp  tn  tn  tp
    gold = [T, T, F, F, F, T]
    pred = [T, F, T, F, F, T]
    c = Confusion.of(gold, pred)
    assert (c.tp, c.fn, c.fp, c.tn) == (2, 1, 1, 2)
    assert c.tpr == pytest.approx(2 / 3) and c.tnr == pytest.approx(2 / 3)
    assert c.precision == pytest.approx(2 / 3)
    assert c.accuracy == pytest.approx(4 / 6)


def test_balanced_accuracy_differs_from_accuracy_on_imbalanced_data():
    # 1 positive, 9 negatives; always predicting "negative" has 90% accuracy but BAcc 50%.
    gold = [T] + [F] * 9
    assert balanced_accuracy(gold, [F] * 10) == pytest.approx(0.5)
    assert accuracy(gold, [F] * 10) == pytest.approx(0.9)
    # catching the positive with 3 false alarms: TPR 1, TNR 6/9 -> (1 + 2/3) / 2
    assert balanced_accuracy(gold, [T, T, T, T] + [F] * 6) == pytest.approx(5 / 6)


def test_balanced_accuracy_with_one_class_absent_averages_the_present_class():
    assert balanced_accuracy([T, T, T], [T, F, T]) == pytest.approx(2 / 3)


def test_confusion_rejects_length_mismatch():
    with pytest.raises(ValueError):
        Confusion.of([T, F], [T])


def test_multiclass_confusion_matrix():
    gold = ["entailment", "neutral", "contradiction", "neutral", "entailment"]
    pred = ["entailment", "entailment", "contradiction", "neutral", "neutral"]
    m = confusion_matrix(gold, pred, ("entailment", "neutral", "contradiction"))
    assert m["entailment"] == {"entailment": 1, "neutral": 1, "contradiction": 0}
    assert m["neutral"] == {"entailment": 1, "neutral": 1, "contradiction": 0}
    assert m["contradiction"]["contradiction"] == 1
    assert sum(v for row in m.values() for v in row.values()) == 5
    assert accuracy(gold, pred) == pytest.approx(3 / 5)


def test_threshold_grid_and_rule_is_at_or_above():
    grid = threshold_grid(0.25)
    assert grid == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert len(threshold_grid()) == 101
    assert predict_at([0.5, 0.49, 0.9], 0.5) == [True, False, True]


def test_best_threshold_picks_the_lowest_of_the_best():
    scores = [0.9, 0.8, 0.3, 0.6, 0.2]
    gold = [T, T, F, F, F]
    # thresholds in (0.6, 0.8] separate perfectly; the lowest grid point there is 0.61
    t, bacc = best_threshold(scores, gold)
    assert t == pytest.approx(0.61) and bacc == pytest.approx(1.0)
    # on a coarse grid: 0.5 gives TPR 1, TNR 2/3; 0.75 gives 1, 1
    assert best_threshold(scores, gold, [0.0, 0.5, 0.75, 1.0]) == (0.75, pytest.approx(1.0))


def test_error_rates_unsafe_pass_and_over_flag():
    # should_pass: 3 good answers, 4 that must be stopped
    should_pass = [T, T, T, F, F, F, F]
    passed = [T, F, T, T, F, F, F]
    r = ErrorRates.of(should_pass, passed)
    assert (r.unsafe, r.should_stop, r.over, r.should_pass) == (1, 4, 1, 3)
    assert r.unsafe_pass == pytest.approx(1 / 4)
    assert r.over_flag == pytest.approx(1 / 3)


def test_threshold_for_target_unsafe_rate_is_the_lowest_that_meets_it():
    def at(t, unsafe, over):
        return (t, ErrorRates(unsafe, over, 10, 10, round(unsafe * 10), round(over * 10)))

    curve = [at(0.7, 0.0, 0.6), at(0.3, 0.3, 0.1), at(0.5, 0.05, 0.3), at(0.6, 0.05, 0.4)]
    assert threshold_for_unsafe_rate(curve, 0.05) == (0.5, True)
    assert threshold_for_unsafe_rate(curve, 0.5) == (0.3, True)
    # unreachable: the lowest unsafe rate, and on ties the highest threshold
    curve = [at(0.3, 0.4, 0.1), at(0.5, 0.2, 0.3), at(0.9, 0.2, 0.8)]
    assert threshold_for_unsafe_rate(curve, 0.05) == (0.9, False)


def test_span_overlap_precision_recall():
    assert overlaps((0, 5), (4, 9)) and not overlaps((0, 5), (5, 9))
    flagged = [(0, 10), (20, 30), (40, 50)]
    gold = [(5, 7), (8, 9), (60, 65)]
    # one flag hits gold, both of the first two gold spans are hit, the third is missed
    assert span_precision_recall(flagged, gold) == (1, 3, 2, 3)


def test_row_verdict_and_score_take_the_weakest_claim():
    from types import SimpleNamespace as NS

    from benchmarks.accuracy import row_score, supported

    def report(*claims):
        return NS(claims=[NS(label=label, score=score) for label, score in claims])

    # at support=0 a claim that passes every other check is "supported" with its entailment as score
    assert row_score(report(("supported", 0.9), ("supported", 0.4))) == 0.4
    assert row_score(report(("supported", 0.9), ("contradicted", 0.95))) == 0.0  # a fact mismatch: never
    assert row_score(report()) == 0.0  # no claim: never supported
    assert supported(report(("supported", 0.9), ("supported", 0.6)))
    assert not supported(report(("supported", 0.9), ("partial", 0.45)))
    assert not supported(report())


def test_uhgeval_keywords_become_spans_in_reading_order():
    from benchmarks.datasets import _keywords

    text = "德国外长表示，德国将继续推进。"
    kws = _keywords(text, ["德国外长<sep>不合理，应为施泰因迈尔", "德国<sep>合理", "推进<sep>合理", "缺失<sep>合理"])
    # the second 德国 is found after the first keyword, not inside it; a keyword not in the text is dropped
    assert [(k.start, k.end, k.bad) for k in kws] == [(0, 4, True), (7, 9, False), (12, 14, False)]


def test_changed_rows_lists_verdicts_that_moved_between_two_runs():
    from benchmarks.accuracy import changed_rows

    before = {"results": {"wice": {"rows": [["a", 1, 1, 0.9], ["b", 0, 1, 0.7], ["c", 1, 0, 0.2]]}}}
    after = {"results": {"wice": {"rows": [["a", 1, 1, 0.8], ["b", 0, 0, 0.3], ["c", 1, 1, 0.6], ["d", 1, 0, 0.1]]},
                         "fcgpt": {"rows": [["x", 1, 1, 0.9]]}}}
    assert changed_rows(before, after) == {"wice": [("b", 0, 1, 0), ("c", 1, 0, 1)]}
