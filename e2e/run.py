"""Runs the browser journeys against a running Fieldhouse: `python e2e/run.py --base URL --out DIR`.

`make e2e` starts the server and calls this; run it by hand against `make run` with
`.build/e2e-venv/bin/python e2e/run.py --base http://127.0.0.1:8080 --only team`.
Each journey runs once per window size in fresh browsers. A journey fails on its first wrong step, and
every page it visits adds its findings (checks.js, console errors, focus); any finding fails the run.
"""

import argparse
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from browser import SIZES, JourneyFailed, Run  # noqa: E402
from journeys import JOURNEYS  # noqa: E402


def planned(sizes, only, skip):
    """(size, name, journey) in the order they run: size by size, unless `one` picks each journey's."""
    chosen = [(name, journey) for name, journey in JOURNEYS.items() if (not only or name in only) and name not in skip]
    if sizes == ["one"]:
        return [("desktop" if "desktop" in getattr(j, "sizes", SIZES) else getattr(j, "sizes")[0], n, j) for n, j in chosen]
    # A journey may name the sizes it runs at (the recorder: phone only).
    return [(size, n, j) for size in sizes for n, j in chosen if size in getattr(j, "sizes", SIZES)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--only", nargs="*", help="journey names (default: all)")
    parser.add_argument("--skip", nargs="*", default=[], help="journey names to leave out (CI runs the recorder on the cluster only)")
    parser.add_argument("--size", choices=sorted(SIZES) + ["one"], nargs="*",
                        help="window sizes (default: both); `one` runs each journey once, at desktop size unless it runs only at another")
    args = parser.parse_args()
    stamp = time.strftime("%H%M%S")
    failures = 0
    for size, name, journey in planned(args.size or ["desktop", "phone"], args.only, args.skip):
        run = Run(args.base, args.out, name, size, stamp)
        started = time.monotonic()
        problem = None
        try:
            journey(run)
        except JourneyFailed as error:
            problem = str(error)
        except Exception:
            problem = traceback.format_exc(limit=4)
        finally:
            for browser in run.browsers:
                if problem:
                    browser.driver.save_screenshot(str(run.folder / f"zz-failed-{browser.who}.png"))
            run.close()
        seconds = time.monotonic() - started
        pages = {page for page, _ in run.findings}
        if problem or run.findings:
            failures += 1
            print(f"✘ {name} at {size} ({seconds:.0f} s, {run.step} steps)")
            if problem:
                print("    stopped: " + problem.strip().replace("\n", "\n    "))
            for page in sorted(pages):
                print(f"    {page}")
                for finding in sorted({f for p, f in run.findings if p == page}):
                    print(f"      - {finding}")
        else:
            print(f"✔ {name} at {size} ({seconds:.0f} s, {run.step} steps; screenshots in {run.folder})")
    print(f"e2e: {'all journeys passed' if failures == 0 else f'{failures} journey runs failed'}; screenshots under {args.out}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
