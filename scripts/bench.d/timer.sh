# shellcheck shell=bash
# The timer rows of scripts/bench (precision):
#   - `timer wait` returns within 20 ms of the countdown's true end (median and
#     worst of 20 runs; 5 with --quick);
#   - it uses under 1% of a core while it waits.
# Sourced by scripts/bench after lib.sh.
#
# Method
#   Lateness: `timer start 2s --json` gives `ends_at`, the end on the wall clock
#   with milliseconds (start reading + 2 s, taken inside the start process).
#   `timer wait` then runs with stdout not a terminal, and the moment it has
#   exited is taken with bash's $EPOCHREALTIME (a builtin: no fork between the
#   exit and the reading). lateness = that moment - ends_at. It therefore
#   includes wait's last database read, its output, process exit and bash
#   reaping it: an upper bound on how late wait returns. `ends_at` is
#   truncated to the millisecond, which can only overstate lateness (< 1 ms).
#   Both sides read CLOCK_REALTIME; wait itself sleeps on CLOCK_BOOTTIME, so an
#   NTP step during a run would show up here as an outlier, not hide one.
#   CPU: a 10 s countdown is waited for under bash's `time` (getrusage of the
#   child, microsecond resolution): (user + sys) / real, start-up included.
#   A second figure samples /proc/PID/stat (utime + stime, in clock ticks) from
#   1 s to 9 s into a wait, the steady state without start-up.

# timer_json_field NAME: the first "NAME":value in stdin (string or number).
timer_json_field() {
  sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\)\"\{0,1\}[,}].*/\1/p" | head -n 1
}

section_timer() {
  local runs=20 home="$BENCH_HOMES/timer" bin="$BENCH_BIN" late="$BENCH_WORK/timer.late"
  [ "$BENCH_QUICK" -eq 1 ] && runs=5
  bench_new_home "$home"

  bench_log "measuring timer wait lateness over $runs runs of 'timer start 2s' + 'timer wait'..."
  local run started id ends_at returned end
  : > "$late"
  for run in $(seq 1 "$runs"); do
    started=$("$bin" --home "$home" timer start 2s --json)
    id=$(timer_json_field id <<<"$started")
    ends_at=$(timer_json_field ends_at <<<"$started")
    "$bin" --home "$home" timer wait "$id" > "$BENCH_WORK/wait.out"
    returned=$EPOCHREALTIME
    end=$(date -u -d "$ends_at" +%s.%N)
    awk -v r="$returned" -v e="$end" 'BEGIN { printf "%.3f\n", (r - e) * 1000 }' >> "$late"
    grep -q "finished at" "$BENCH_WORK/wait.out" ||
      bench_die "timer wait, run $run: unexpected output: $(cat "$BENCH_WORK/wait.out")"
  done
  local median earliest worst
  median=$(sort -g "$late" | awk '{ v[NR] = $1 } END { printf "%.3f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
  earliest=$(sort -g "$late" | head -n 1)
  worst=$(sort -g "$late" | tail -n 1)

  bench_log "measuring timer wait CPU over a 10 s wait (twice)..."
  local real user sys cpu_whole
  id=$("$bin" --home "$home" timer start 10s --json | timer_json_field id)
  local TIMEFORMAT='%3R %3U %3S'
  { time "$bin" --home "$home" timer wait "$id" >/dev/null; } 2> "$BENCH_WORK/wait.time"
  read -r real user sys < "$BENCH_WORK/wait.time"
  cpu_whole=$(awk -v r="$real" -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", (u + s) / r * 100 }')

  local pid t0 t1 s0 s1 hz cpu_steady
  id=$("$bin" --home "$home" timer start 10s --json | timer_json_field id)
  "$bin" --home "$home" timer wait "$id" >/dev/null &
  pid=$!
  sleep 1
  t0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat"); s0=$EPOCHREALTIME
  sleep 8
  t1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat"); s1=$EPOCHREALTIME
  wait "$pid"
  hz=$(getconf CLK_TCK)
  cpu_steady=$(awk -v a="$t0" -v b="$t1" -v x="$s0" -v y="$s1" -v hz="$hz" \
    'BEGIN { printf "%.3f", (b - a) / hz / (y - x) * 100 }')

  bench_limit "timer wait lateness, median" "$median" ms "<=" 20 "$runs runs of a 2 s countdown"
  bench_limit "timer wait lateness, worst" "$worst" ms "<=" 20 "per run (ms): $(paste -sd' ' "$late")"
  bench_limit "timer wait lateness, earliest" "$earliest" ms ">=" -20 "the earliest run; below 0 would be a wait that returned before the end"
  bench_limit "timer wait CPU, whole wait" "$cpu_whole" % "<" 1 "10 s: ${user} s user + ${sys} s sys, start-up included"
  bench_limit "timer wait CPU, steady" "$cpu_steady" % "<" 1 "1 s to 9 s into a wait: $((t1 - t0)) ticks at $hz Hz"
}
