"""docs/differences.md stays readable by the differential checks."""
import _differences


def test_every_key_is_well_formed_and_explained():
    entries = _differences.entries()
    assert entries, 'docs/differences.md lists nothing'
    for key, text in entries.items():
        area, _, rest = key.partition(':')
        assert area in _differences.AREAS, f'{key}: unknown area {area!r}'
        assert rest, f'{key}: the key names no public name'
        assert 'Why:' in text, f'{key}: the entry gives no reason ("Why: ...")'
