#!/usr/bin/env bash
# Builds every libFuzzer harness in Fuzz/ and runs each for FUZZ_SECONDS (default 60).
#
#   make fuzz                      # each harness for a minute, random seeds
#   FUZZ_SECONDS=600 make fuzz     # longer
#   FUZZ_ONLY="GPX FIT" make fuzz  # some harnesses
#   FUZZ_SEED=1 ...                # a repeatable run (CI uses it)
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
swiftc "${common[@]}" -module-name FieldhouseKit -emit-module -emit-module-path "$out/FieldhouseKit.swiftmodule" \
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

failed=()
for harness in "${harnesses[@]}"; do
  name=$(basename "$harness" .swift)
  [[ -n "${FUZZ_ONLY:-}" && " $FUZZ_ONLY " != *" $name "* ]] && continue
  read -r -a extra <<< "$(header "$harness" fuzz-sources)"
  read -r -a seeds <<< "$(header "$harness" fuzz-seeds)"
  links=()
  if [[ "$(header "$harness" fuzz-links)" == "NIOCore" ]]; then nio_objects; links=("${nio[@]}"); fi
  echo "fuzz: building $name…"
  if ! swiftc "${common[@]}" -module-name "Fuzz$name" -I "$out" "$harness" "${extra[@]}" "$out/libFieldhouseKit.a" \
      "${links[@]}" -lz -lmarkdown -lvips -lgobject-2.0 -lglib-2.0 -o "$out/bin/$name" 2> >(grep -v "Cannot export local symbol" >&2); then
    failed+=("$name (does not build)")
    continue
  fi
  mkdir -p "$out/corpus/$name"
  options=(-max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
           -artifact_prefix="Fuzz/crashes/$name-")
  [[ -n "${FUZZ_SEED:-}" ]] && options+=(-seed="$FUZZ_SEED")
  echo "fuzz: running $name for ${seconds}s…"
  if ! "$out/bin/$name" "${options[@]}" "$out/corpus/$name" "${seeds[@]}" > "$out/$name.log" 2>&1; then
    tail -n 40 "$out/$name.log" >&2
    failed+=("$name (found a crash: Fuzz/crashes/$name-*)")
  fi
  grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' "$out/$name.log" | tr '\n' ' ' | sed "s/^/fuzz: $name: /"; echo
done

if (( ${#failed[@]} )); then
  printf 'fuzz: FAILED: %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "fuzz: every harness ran ${seconds}s without a crash"
