#!/usr/bin/env bash
# Builds every libFuzzer harness in Fuzz/ and runs each for FUZZ_SECONDS (default 60).
#
#   make fuzz                      # each harness for a minute, random seeds
#   FUZZ_SECONDS=600 make fuzz     # longer
#   FUZZ_ONLY="GPX FIT" make fuzz  # some harnesses
#   FUZZ_SEED=1 ...                # a repeatable run (CI uses it)
#   FUZZ_JOBS=1 ...                # one harness at a time (default: one per core)
#
# A harness is a Swift file in Fuzz/ whose header names what it covers (`// fuzz-covers:` FieldhouseKit
# files), its seed corpus (`// fuzz-seeds:` folders), any app files it compiles in (`// fuzz-sources:`) and
# `// fuzz-links: NIOCore` when those files use SwiftNIO's ByteBuffer (linked from the package's debug build).
# FieldhouseKit is built once with coverage and AddressSanitizer; each harness links against it.
# Inputs that crash are saved under Fuzz/crashes/; turn each into a regression test. The run fails
# when a harness does not build, when it finds a crash, or when a FieldhouseKit reader has no harness.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
out=.build-fuzz
mkdir -p "$out/bin" "$out/corpus" Fuzz/crashes
common=(-sanitize=fuzzer,address -O -g -parse-as-library -I Sources/CZlib -I Sources/CDiscount -I Sources/CVips -Xcc -I/usr/include)
# libvips's headers include GLib's; pkg-config knows where they are.
for flag in $(pkg-config --cflags vips); do common+=(-Xcc "$flag"); done

header() { sed -n "s|^// $2: ||p" "$1" | head -n 1; }
harnesses=(Fuzz/*.swift)

# Every FieldhouseKit file that reads outside input (a `read`/`parse` entry point or a parsing
# initialiser) must be covered by some harness, so a new reader cannot arrive without one.
covered=" $(for h in "${harnesses[@]}"; do header "$h" fuzz-covers; done | tr '\n' ' ') "
missing=()
for file in $(grep -lE 'public (static func (read|parse|milliseconds|header)\(|init\(parsing)|public mutating func feed\(' Sources/FieldhouseKit/*.swift); do
  name=$(basename "$file" .swift)
  [[ "$covered" == *" $name "* ]] || missing+=("$name")
done
if (( ${#missing[@]} )); then
  echo "fuzz: readers without a harness: ${missing[*]} (name them in a harness's '// fuzz-covers:' line)" >&2
  exit 1
fi

echo "fuzz: building FieldhouseKit with coverage…"
swiftc "${common[@]}" -j "${FUZZ_JOBS:-$(nproc)}" -module-name FieldhouseKit -emit-module -emit-module-path "$out/FieldhouseKit.swiftmodule" \
  -emit-library -static -o "$out/libFieldhouseKit.a" Sources/FieldhouseKit/*.swift

# NIOCore and what it depends on, as `swift build` compiled them, for harnesses of code that uses ByteBuffer.
nio=()
nio_objects() {
  if (( ${#nio[@]} == 0 )); then
    swift build --target NIOCore >/dev/null 2>&1
    local target file
    for target in NIOCore _NIODataStructures _NIOBase64 NIOConcurrencyHelpers Atomics _AtomicsShims CNIOAtomics DequeModule \
                  InternalCollectionsUtilities ContainersPreview CNIOLinux CNIODarwin CNIOWindows CNIOWASI; do
      while IFS= read -r -d '' file; do nio+=("$file"); done < <(find ".build/debug/$target.build" -name '*.o' -print0)
    done
    for file in .build/debug/*.build/module.modulemap; do nio+=(-Xcc "-fmodule-map-file=$file"); done
    nio+=(-I .build/debug/Modules -Xcc -I.build/checkouts/swift-atomics/Sources/_AtomicsShims/include)
  fi
}

# Each harness is built, then run, in a job of its own; FUZZ_JOBS of them at once (default: one per
# core), since each libFuzzer run uses one core. What a harness prints is shown when it ends, whole.
jobs=${FUZZ_JOBS:-$(nproc)}
selected=()
for harness in "${harnesses[@]}"; do
  name=$(basename "$harness" .swift)
  [[ -n "${FUZZ_ONLY:-}" && " $FUZZ_ONLY " != *" $name "* ]] && continue
  selected+=("$harness")
  # The NIO objects are found before the jobs start, so no two jobs run `swift build` at once.
  if [[ "$(header "$harness" fuzz-links)" == "NIOCore" ]]; then nio_objects; fi
done
rm -f "$out"/*.failed

fuzz_one() {
  local harness=$1 name
  name=$(basename "$harness" .swift)
  read -r -a extra <<< "$(header "$harness" fuzz-sources)"
  read -r -a seeds <<< "$(header "$harness" fuzz-seeds)"
  local links=()
  if [[ "$(header "$harness" fuzz-links)" == "NIOCore" ]]; then links=("${nio[@]}"); fi
  echo "fuzz: building $name…"
  local status=0
  swiftc "${common[@]}" -module-name "Fuzz$name" -I "$out" -module-cache-path "$out/cache-$name" "$harness" "${extra[@]}" \
    "$out/libFieldhouseKit.a" "${links[@]}" -lz -lmarkdown -lvips -lgobject-2.0 -lglib-2.0 -o "$out/bin/$name" \
    > "$out/$name.build.log" 2>&1 || status=$?
  grep -v "Cannot export local symbol" "$out/$name.build.log" || true
  if (( status )); then
    echo "$name (does not build)" > "$out/$name.failed"
    return
  fi
  mkdir -p "$out/corpus/$name"
  local options=(-max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
           -artifact_prefix="Fuzz/crashes/$name-")
  [[ -n "${FUZZ_SEED:-}" ]] && options+=(-seed="$FUZZ_SEED")
  echo "fuzz: running $name for ${seconds}s…"
  if ! "$out/bin/$name" "${options[@]}" "$out/corpus/$name" "${seeds[@]}" > "$out/$name.log" 2>&1; then
    tail -n 40 "$out/$name.log"
    echo "$name (found a crash: Fuzz/crashes/$name-*)" > "$out/$name.failed"
  fi
  grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' "$out/$name.log" | tr '\n' ' ' | sed "s/^/fuzz: $name: /"; echo
}

running=0
for harness in "${selected[@]}"; do
  if (( running >= jobs )); then wait -n || true; running=$((running - 1)); fi
  name=$(basename "$harness" .swift)
  { fuzz_one "$harness" > "$out/$name.out" 2>&1; cat "$out/$name.out"; } &
  running=$((running + 1))
done
wait

failed=()
for file in "$out"/*.failed; do [[ -e "$file" ]] && failed+=("$(cat "$file")"); done
if (( ${#failed[@]} )); then
  printf 'fuzz: FAILED: %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "fuzz: every harness ran ${seconds}s without a crash"
