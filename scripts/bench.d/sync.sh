# shellcheck shell=bash
# The sync rows of scripts/bench: a hub (`memoapp serve` on loopback) and
# devices (data homes on the bench's tmpfs), whole `memoapp sync` processes:
#   nothing to do        <= 50 ms (hyperfine median) and <= 2 KB on the wire
#                        (HTTP heads and bodies, as `sync --json` counts them)
#   push 10,000 changes  <= 5 s: 10,000 to-dos made on a device, one sync
#                        (it also pulls them back as the hub merged them)
#   pull 10,000 changes  <= 3 s: another device taking them
#   new device           <= 60 s and peak RSS <= 100 MB: a fresh device's first
#                        sync of a hub holding 100,000 to-dos and 100,000 memos
#                        (the hub publishes them to sync on that first pull)
#   --watch              <= 1 s, median of 50: a to-do added on one device is
#                        in the other's database, both running `sync --watch`
#   audio                a voice memo of one hour of 44.1 kHz mono WAV (318 MB)
#                        crosses once each way: bytes on the wire <= 1.05x the
#                        file, its upload cut after a second and resumed (the
#                        bytes sent before the cut count)
# Sourced by scripts/bench after lib.sh.

sync_start_hub() {
  local home="$1" out="$BENCH_WORK/sync-serve.out.$RANDOM" _
  "$BENCH_BIN" --home "$home" --json serve --listen 127.0.0.1:0 > "$out" 2>/dev/null &
  SYNC_HUB_PID=$!
  BENCH_CHILDREN+=("$SYNC_HUB_PID")
  for _ in $(seq 1 200); do [ -s "$out" ] && break; sleep 0.1; done
  SYNC_URL=$(head -n 1 "$out" | jq -r .url)
  [ -n "$SYNC_URL" ] && [ "$SYNC_URL" != null ] || bench_die "memoapp serve printed no URL"
}

# sync_device HOME NAME: a device home, onboarded, its token made on the
# hub, synced once (saving the server).
sync_device() {
  local home="$1" name="$2" token
  bench_new_home "$home"
  token=$("$BENCH_BIN" --home "$SYNC_HUB" --json token create "$name" | jq -r .token)
  "$BENCH_BIN" --home "$home" sync --server "$SYNC_URL" --token "$token" >/dev/null || bench_die "first sync of $name failed"
}

# sync_ms COMMAND...: the wall time of one run, in milliseconds.
sync_ms() {
  local start end
  start=$EPOCHREALTIME
  "$@" >/dev/null || bench_die "failed: $*"
  end=$EPOCHREALTIME
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", (b - a) * 1000 }'
}

section_sync() {
  bench_need sqlite3 jq python3
  SYNC_HUB="$BENCH_HOMES/sync-hub"
  bench_new_home "$SYNC_HUB"
  sync_start_hub "$SYNC_HUB"
  local a="$BENCH_HOMES/sync-a" b="$BENCH_HOMES/sync-b" c="$BENCH_HOMES/sync-c"
  local idle push pull fresh_ms fresh_rss bytes

  # Nothing to do: the bytes as `sync --json` counts them (libcurl's
  # request and answer sizes, heads and bodies).
  sync_device "$a" sync-a
  "$BENCH_BIN" --home "$a" todo add "one to-do" >/dev/null
  "$BENCH_BIN" --home "$a" sync >/dev/null
  bytes=$("$BENCH_BIN" --home "$a" --json sync | jq '.bytes_sent + .bytes_received')
  bench_measure sync-idle "$BENCH_BIN --home $a sync"
  idle=$(bench_median_ms sync-idle)
  bench_limit "sync (nothing to do)" "$idle" ms "<=" 50 "whole process, hyperfine median"
  bench_limit "sync bytes (nothing to do)" "$(awk -v b="$bytes" 'BEGIN { print b / 1024 }')" KB "<=" 2 \
    "$bytes bytes both ways, HTTP heads included"

  # Push 10,000, then another device pulls them.
  sync_device "$b" sync-b
  seq 1 10000 | sed 's/^/bench to-do /' > "$BENCH_WORK/sync-todo.txt"
  "$BENCH_BIN" --home "$a" todo import "$BENCH_WORK/sync-todo.txt" --from todotxt >/dev/null
  push=$(sync_ms "$BENCH_BIN" --home "$a" sync)
  bench_limit "sync push 10,000" "$push" ms "<=" 5000 "one sync: sent, merged, taken back"
  pull=$(sync_ms "$BENCH_BIN" --home "$b" sync)
  bench_limit "sync pull 10,000" "$pull" ms "<=" 3000 "a second device taking them"
  [ "$(sqlite3 "$b/memoapp.db" 'SELECT count(*) FROM todos')" -ge 10001 ] || bench_die "device b lacks the to-dos"

  # A new device on a hub of 100,000 + 100,000.
  local big="$BENCH_HOMES/sync-big"
  bench_new_home "$big"
  bench_fill_notes "$big/memoapp.db" 100000
  # bench_fill_notes writes rows as a tool would, without uids: give them theirs.
  "$BENCH_SQL" "$big/memoapp.db" >/dev/null <<'SQL'
UPDATE todos SET uid = lower(printf('%08x-%04x-4%03x-8%03x-%012x', id, id % 65536, id % 4096, id % 4096, id)) WHERE uid IS NULL;
UPDATE memos SET uid = lower(printf('%08x-%04x-4%03x-9%03x-%012x', id, id % 65536, id % 4096, id % 4096, id)) WHERE uid IS NULL;
SQL
  kill "$SYNC_HUB_PID" 2>/dev/null; wait "$SYNC_HUB_PID" 2>/dev/null || true
  SYNC_HUB="$big"
  sync_start_hub "$big"
  bench_new_home "$c"
  local token
  token=$("$BENCH_BIN" --home "$big" --json token create sync-c | jq -r .token)
  local started=$EPOCHREALTIME
  fresh_rss=$(bench_max_rss_mb "$BENCH_BIN" --home "$c" sync --server "$SYNC_URL" --token "$token")
  fresh_ms=$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", (b - a) * 1000 }')
  bench_limit "sync new device 100k+100k" "$fresh_ms" ms "<=" 60000 "first sync, whole process"
  bench_limit "sync new device peak RSS" "$fresh_rss" MB "<=" 100 "the device's process"
  [ "$(sqlite3 "$c/memoapp.db" 'SELECT count(*) FROM memos')" -eq 100000 ] || bench_die "device c lacks the memos"

  section_sync_watch
  section_sync_audio
}

# One hour of WAV from device f to the hub (cut after a second, then
# resumed) and on to device g.
section_sync_audio() {
  bench_need sox curl
  local f="$BENCH_HOMES/sync-f" g="$BENCH_HOMES/sync-g" wav="$BENCH_WORK/audio/sync-hour.wav"
  mkdir -p "$BENCH_WORK/audio"
  [ -f "$wav" ] || sox -n -r 44100 -c 1 -b 16 "$wav" synth 3600 pinknoise vol 0.5
  local size checksum before sent received up_ms down_ms
  size=$(stat -c %s "$wav")
  sync_device "$f" sync-f
  sync_device "$g" sync-g
  "$BENCH_BIN" --home "$f" voice import "$wav" >/dev/null
  checksum=$("$BENCH_BIN" --home "$f" --json voice list | jq -r '.[0].checksum')
  # The first upload is killed after a second: what the hub holds of it
  # crossed the wire already and counts.
  "$BENCH_BIN" --home "$f" sync >/dev/null 2>&1 &
  local cut_pid=$!
  sleep 1
  kill -9 "$cut_pid" 2>/dev/null; wait "$cut_pid" 2>/dev/null || true
  local token
  token=$(sqlite3 "$f/memoapp.db" 'SELECT token FROM sync_remote')
  before=$(curl -s -H "Authorization: Bearer $token" "$SYNC_URL/api/v1/sync/blobs/$checksum/received" | jq .received)
  local started=$EPOCHREALTIME
  sent=$("$BENCH_BIN" --home "$f" --json sync | jq .bytes_sent)
  up_ms=$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", (b - a) * 1000 }')
  started=$EPOCHREALTIME
  received=$("$BENCH_BIN" --home "$g" --json sync | jq .bytes_received)
  down_ms=$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", (b - a) * 1000 }')
  [ "$("$BENCH_BIN" --home "$g" --json voice list | jq -r '.[0].checksum')" = "$checksum" ] \
    || bench_die "device g lacks the hour of audio"
  bench_limit "sync audio upload, wire / file" "$(awk -v a="$before" -v b="$sent" -v s="$size" 'BEGIN { print (a + b) / s }')" \
    x "<=" 1.05 "1 h WAV, $((size >> 20)) MB: $((before >> 20)) MB before a kill -9, the rest resumed in $up_ms ms"
  bench_limit "sync audio download, wire / file" "$(awk -v b="$received" -v s="$size" 'BEGIN { print b / s }')" \
    x "<=" 1.05 "the same hour to a second device in $down_ms ms"
}

# Two devices on --watch; each round adds a to-do on one and times until the
# other's database holds it.
section_sync_watch() {
  local d="$BENCH_HOMES/sync-d" e="$BENCH_HOMES/sync-e" times="$BENCH_WORK/results/sync-watch.times" round start
  sync_device "$d" sync-d
  sync_device "$e" sync-e
  "$BENCH_BIN" --home "$d" sync --watch >/dev/null 2>&1 &
  BENCH_CHILDREN+=("$!")
  "$BENCH_BIN" --home "$e" sync --watch >/dev/null 2>&1 &
  BENCH_CHILDREN+=("$!")
  sleep 1
  mkdir -p "$BENCH_WORK/results"
  : > "$times"
  for round in $(seq 1 50); do
    start=$EPOCHREALTIME
    "$BENCH_BIN" --home "$d" todo add "watch $round" >/dev/null
    local waited=0
    until [ "$(sqlite3 "$e/memoapp.db" "SELECT count(*) FROM todos WHERE title = 'watch $round'" 2>/dev/null)" = 1 ]; do
      sleep 0.01
      waited=$((waited + 1))
      [ "$waited" -lt 1000 ] || bench_die "watch $round never reached the other device"
    done
    awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.6f\n", b - a }' >> "$times"
  done
  bench_limit "sync --watch latency" "$(bench_median_ms sync-watch)" ms "<=" 1000 "median of 50, device to device"
}
