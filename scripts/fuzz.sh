#!/usr/bin/env bash
# Fuzzes the engine's parsers with cargo-fuzz (fuzz/, its own workspace; not part of CI):
#   jsonl       user-dataset JSONL (Dataset::from_jsonl)
#   embeddings  the binary f32 embedding layout, with JSONL and nq-trivia's from_parts
#   trace       SPEC §12 traces (Trace::from_json, round trip, replay of small ones)
#   params      Params JSON, --set KEY=VALUE overrides, experiment definitions
#   url_state   the playground's query string (url_state::decode / decode_lossy / encode)
#
#   bash scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET ...]     (default 120 s, every target)
#
# Prints, per target, the executions run, their rate and the crashes found (inputs in
# fuzz/artifacts/<target>/; reproduce one with `cargo fuzz run <target> <file>` in fuzz/).
# Corpora grow in fuzz/corpus/<target>/ (ignored by git), seeded from fuzz/seeds/<target>/.
# Runs at nice 10 so other work keeps the CPU. Needs cargo-fuzz (`cargo install cargo-fuzz`);
# works on stable Rust with --sanitizer none (set FUZZ_SANITIZER=address and RUSTC_BOOTSTRAP=1
# for AddressSanitizer, which safe Rust seldom needs and which halves the rate).
set -uo pipefail
cd "$(dirname "$0")/../fuzz"
export PATH="$HOME/.cargo/bin:$PATH"
secs=${1:-120}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(jsonl embeddings trace params url_state)
sanitizer=${FUZZ_SANITIZER:-none}
command -v cargo-fuzz >/dev/null || { echo "cargo-fuzz is missing: cargo install cargo-fuzz" >&2; exit 1; }

declare -A maxlen=([jsonl]=4096 [embeddings]=8192 [trace]=8192 [params]=2048 [url_state]=1024)
declare -A dict=([jsonl]=json [embeddings]=json [trace]=json [params]=json [url_state]=url)

for t in "${targets[@]}"; do
    nice -n 10 cargo fuzz build --sanitizer "$sanitizer" "$t" || { echo "build of $t failed" >&2; exit 1; }
done

mkdir -p logs
summary=()
total_crashes=0
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    before=$(find "artifacts/$t" -type f | wc -l)
    log="logs/$t.log"
    start=$(date +%s)
    nice -n 10 cargo fuzz run --sanitizer "$sanitizer" "$t" "corpus/$t" "seeds/$t" -- \
        -max_total_time="$secs" -max_len="${maxlen[$t]:-4096}" -dict="dict/${dict[$t]:-json}.dict" \
        -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 >"$log" 2>&1
    rc=$?
    took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
    took=${took:-$(( $(date +%s) - start ))}
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    execs=${execs:-0}
    after=$(find "artifacts/$t" -type f | wc -l)
    crashes=$(( after - before ))
    [ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ] && crashes=1
    total_crashes=$(( total_crashes + crashes ))
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    corpus=$(find "corpus/$t" -type f | wc -l)
    rate=$(( took > 0 ? execs / took : execs ))
    line=$(printf '%-11s %8ss %12s execs %8s/s  cov %6s  corpus %6s  crashes %s' \
        "$t" "$took" "$execs" "$rate" "${cov:-?}" "$corpus" "$crashes")
    echo "$line"
    summary+=("$line")
    if [ "$crashes" -ne 0 ]; then
        grep -m1 -A8 "panicked\|ERROR: libFuzzer\|==ERROR" "$log" | sed 's/^/    /'
    fi
done
echo
echo "fuzz summary ($(date -u +%Y-%m-%dT%H:%MZ), ${secs}s per target, sanitizer $sanitizer):"
printf '  %s\n' "${summary[@]}"
[ "$total_crashes" -eq 0 ]
