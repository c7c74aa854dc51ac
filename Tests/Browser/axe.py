"""axe-core over the page open in a browser test: the script that
install-axe keeps (it fetches it on first use, so that running one test file
on a new machine works too), injected into the page and run there."""

import subprocess
from functools import lru_cache
from pathlib import Path

INSTALL = Path(__file__).resolve().parent / "install-axe"

# WCAG 2.x A and AA, and axe's best practices: the landmark and heading
# rules the issue names (a main landmark, a first-level heading) are there.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
# Failures at any impact for these: moderate in axe's scale, named by the issue.
ALWAYS_FAIL = {"landmark-one-main", "page-has-heading-one", "region", "heading-order"}


@lru_cache(maxsize=1)
def script():
    path = subprocess.run([str(INSTALL)], check=True, capture_output=True, text=True).stdout.strip()
    return Path(path).read_text(encoding="utf-8")


def violations(driver, context=None):
    """axe's violations on the page as it is now (every frame, the open
    dialog included): the critical and serious ones, and any of ALWAYS_FAIL."""
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(script())
    results = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(arguments[0] || document, { runOnly: { type: 'tag', values: arguments[1] }, resultTypes: ['violations'] })"
        ".then(r => done(r.violations), e => done([{ id: 'axe-error', impact: 'critical', help: String(e), nodes: [] }]));",
        context, TAGS)
    return [v for v in results if v["impact"] in ("critical", "serious") or v["id"] in ALWAYS_FAIL]


def describe(found):
    """One line per violation and element, for a failure's message."""
    lines = []
    for violation in found:
        for node in violation["nodes"][:6] or [{"target": [], "failureSummary": ""}]:
            summary = " ".join(node.get("failureSummary", "").split())
            lines.append(f"{violation['id']} ({violation['impact']}): {node['target']} {summary[:220]}")
    return "\n".join(lines)
