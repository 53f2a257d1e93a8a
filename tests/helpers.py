"""Assertions shared by the test modules."""


def assert_contains(expected, actual, where="document"):
    """Every key of ``expected`` is in ``actual`` with an equal value (dicts compared key by key, recursively).

    Extra keys in ``actual`` are welcome: documents may carry more than the reference expects.
    """
    if isinstance(expected, dict):
        assert isinstance(actual, dict), where
        for key, value in expected.items():
            assert key in actual, f"{where}.{key} missing"
            assert_contains(value, actual[key], f"{where}.{key}")
    elif isinstance(expected, list) and any(isinstance(item, dict) for item in expected):
        assert isinstance(actual, list), where
        assert len(actual) == len(expected), f"{where}: {len(actual)} items instead of {len(expected)}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            assert_contains(e, a, f"{where}[{i}]")
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"
