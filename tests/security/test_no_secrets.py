"""No secret in the repository: private keys, cloud and service tokens, or high-entropy strings assigned to names
that say secret, password, token or key.

Every file that would be committed is scanned (the working tree less what .gitignore keeps out), so a secret is
caught before it reaches a commit.
"""

import fnmatch
import math
import re
from collections import Counter
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
ALWAYS_SKIPPED = {".git", ".venv", "var", "__pycache__", ".ruff_cache", ".hypothesis", ".pytest_cache", "node_modules"}
BINARY_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".ico", ".woff", ".woff2", ".ttf", ".pdf", ".gz", ".zip", ".whl"}

BEGIN = "-----BEGIN"  # split, so this file does not match itself
KNOWN_SECRET_SHAPES = {
    "private key": re.compile(BEGIN + r" (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY"),
    "AWS access key": re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    "GitHub token": re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b"),
    "Slack token": re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
    "Stripe key": re.compile(r"\b[rs]k_live_[A-Za-z0-9]{20,}"),
    "Google API key": re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"),
    "URL with a password": re.compile(r"\b[a-z+]+://[^/\s:@'\"]+:[^/\s:@'\"{}$]{6,}@"),
}
ASSIGNED_SECRET = re.compile(
    r"""(?i)\b[\w.-]*(?:secret|passw(?:or)?d|token|api_?key|private_?key)[\w.-]*["']?\s*[:=]\s*["']([^"'\s]{20,})["']"""
)
MIN_ENTROPY_BITS = 4.0  # per character: random base64/hex keys are above, words and placeholders below


def _ignored_patterns() -> list[str]:
    gitignore = BASE_DIR / ".gitignore"
    lines = gitignore.read_text().splitlines() if gitignore.exists() else []
    return [line.strip().rstrip("/") for line in lines if line.strip() and not line.startswith("#")]


def committable_files() -> list[Path]:
    patterns = _ignored_patterns()
    files = []
    for path in BASE_DIR.rglob("*"):
        relative = path.relative_to(BASE_DIR)
        if any(part in ALWAYS_SKIPPED for part in relative.parts):
            continue
        if any(fnmatch.fnmatch(part, pattern) for part in relative.parts for pattern in patterns):
            continue
        if path.is_file() and path.suffix.lower() not in BINARY_SUFFIXES and path.stat().st_size < 2_000_000:
            files.append(path)
    return files


def entropy(text: str) -> float:
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


def findings(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8", errors="replace")
    found = []
    for what, pattern in KNOWN_SECRET_SHAPES.items():
        found += [f"{what}: {m.group(0)[:40]}" for m in pattern.finditer(text)]
    for match in ASSIGNED_SECRET.finditer(text):
        value = match.group(1)
        if entropy(value) >= MIN_ENTROPY_BITS and not value.startswith(("${", "{{", "<")):
            found.append(f"high-entropy value: {match.group(0)[:60]}")
    return found


def test_no_file_that_would_be_committed_holds_a_secret():
    files = committable_files()
    assert len(files) > 50
    leaks = {str(path.relative_to(BASE_DIR)): found for path in files if (found := findings(path))}
    assert leaks == {}


def test_the_scan_finds_keys_and_tokens(tmp_path):
    samples = {
        "key.pem": BEGIN + " RSA PRIVATE KEY-----\nMIIEow\n",
        "settings.py": 'SECRET_KEY = "' + "q8#Zk2@vL0m!pX7rT4wY9bN3cF6hJ1sD5gA" + '"\n',  # split: no match here
        "ci.yml": "token: ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5\n",
        "deploy.sh": "curl postgres://admin:" + "hunter2hunter2@db.internal/x\n",
    }
    for name, text in samples.items():
        (tmp_path / name).write_text(text)

    assert all(findings(tmp_path / name) for name in samples), {n: findings(tmp_path / n) for n in samples}
    (tmp_path / "fine.py").write_text('SECRET_KEY = env.str("SECRET_KEY", default="")\nPASSWORD = "correct horse"\n')
    assert findings(tmp_path / "fine.py") == []
