def pytest_configure(config):
    config.addinivalue_line(
        "markers", "replica: makes and uses a real PostgreSQL streaming replica (tests/talentdb/replica.py)"
    )
