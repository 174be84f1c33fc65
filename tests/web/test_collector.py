"""The server's garbage-collector tuning: applied, and undone, as documented."""

import gc

from ladytiger.web import collector


def test_tuning_raises_the_thresholds_freezes_the_startup_objects_and_can_be_undone() -> None:
    before = gc.get_threshold()
    old = collector.tune_for_server(young=12_345)
    try:
        assert old == before
        assert gc.get_threshold() == (12_345, *collector.OLDER_THRESHOLDS)
        assert gc.get_freeze_count() > 0
    finally:
        collector.restore(old)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_an_app_made_in_another_program_leaves_the_collector_alone() -> None:
    from ladytiger.web import Settings

    assert Settings().tune_collector is False
