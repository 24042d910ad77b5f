#!/bin/sh
# Runs every fuzz target in turn (built with `cargo fuzz build -O -a -s none`),
# one at a time, at low priority. Usage: ./run_all.sh [seconds-per-target]
secs=${1:-480}
bin=target/x86_64-unknown-linux-gnu/release
for spec in budget:65536:html mine:32768:html tree:32768:html tokenize:32768:html dates:256:dates charset:16384:html config:4096:toml; do
    t=${spec%%:*}; rest=${spec#*:}; len=${rest%%:*}; dict=${rest#*:}
    mkdir -p artifacts/$t
    echo "=== $t $(date -u +%T)"
    nice -n 19 $bin/$t corpus/$t -dict=dict/$dict.dict -jobs=1 -max_len=$len \
        -rss_limit_mb=2048 -timeout=10 -max_total_time=$secs \
        -artifact_prefix=artifacts/$t/ -print_final_stats=1 > logs/$t.log 2>&1
    echo "=== $t done rc=$? $(date -u +%T)"
done
