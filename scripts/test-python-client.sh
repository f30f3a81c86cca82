#!/usr/bin/env bash
# The Python client as its users get it: ruff (lint and format) and mypy on the source,
# an sdist and a wheel built with `python -m build`, each installed into a fresh virtual
# environment and tested there against a ternion binary (TERNION, else the release build).
#
#     scripts/test-python-client.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export TERNION="${TERNION:-$PWD/target/release/ternion}" TERNION_REPOSITORY="$PWD"
client="$PWD/clients/python"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

python3 -m venv "$scratch/tools"
"$scratch/tools/bin/pip" install --quiet build ruff mypy
(cd "$client" && "$scratch/tools/bin/ruff" check . && "$scratch/tools/bin/ruff" format --check .)
(cd "$client" && "$scratch/tools/bin/mypy")
"$scratch/tools/bin/python" -m build --quiet --outdir "$scratch/dist" "$client" >/dev/null

# Each build in its own environment; the tests run from a copy, so that they import the
# installed package and not the source beside them.
cp -r "$client/tests" "$scratch/tests"
for kind in whl tar.gz; do
    package=$(ls "$scratch"/dist/*."$kind")
    python3 -m venv "$scratch/$kind"
    "$scratch/$kind/bin/pip" install --quiet "$package" pytest mypy
    (cd "$scratch" && "$scratch/$kind/bin/python" -m pytest -q -p no:cacheprovider -W error tests)
done
echo "the Python client: lint, format, types, sdist and wheel tested"
