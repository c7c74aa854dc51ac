# shellcheck shell=bash
# The export, import, backup and restore rows of scripts/bench, on a
# data home of 10,000 to-dos and 10,000 memos. Issue 7 sets no speed targets,
# so every row is informational, beside the nearest thing sqlite3 itself does:
#   export          `memoapp export -o FILE` vs `sqlite3 DB .dump > FILE`
#   import          the export into an empty home (ids kept) vs loading the dump
#                   into a new database; then the same file again (nothing new)
#   backup          `memoapp backup DIR` vs `sqlite3 DB ".backup FILE"`
#   restore         `memoapp restore DIR` into a new home
#   todo import     10,000 todo.txt lines into a fresh home
#   import memory   peak resident memory of the import into an empty home
# Sourced by scripts/bench after lib.sh.

section_data() {
  bench_need sqlite3
  local home="$BENCH_HOMES/data" bin="$BENCH_BIN" work="$BENCH_HOMES/data-work"
  bench_notes_home "$home" 10000
  mkdir -p "$work"
  # Rows written by sqlite3 have no uid yet; memoapp's first export gives them one.
  "$bin" --home "$home" export -o "$work/export.json"
  sqlite3 "$home/memoapp.db" "SELECT CASE WHEN done_at IS NULL THEN '(B) 2026-11-01 ' ELSE 'x 2026-11-20 2026-11-01 ' END
    || replace(title, char(10), ' ') || ' +bench @home due:2026-12-24' FROM todos ORDER BY id" > "$work/todo.txt"
  bench_log "data: export of $(du -h "$work/export.json" | cut -f1), $(wc -l < "$work/todo.txt") todo.txt lines"

  bench_log "measuring export, import, backup and restore..."
  local runs=$((BENCH_QUICK == 1 ? 2 : 3)) db="$home/memoapp.db"
  # Slow commands: a few runs per round, one warm-up. hyperfine runs commands
  # without a shell (-N), so a preparation of two steps goes through bash.
  BENCH_BATCH=$runs BENCH_WARMUP=1 bench_rounds \
    export_memoapp "$bin --home $home export -o $work/out.json" \
    export_sqlite "sqlite3 -cmd '.output $work/out.sql' $db .dump"
  sqlite3 "$db" .dump > "$work/dump.sql"
  BENCH_BATCH=$runs BENCH_WARMUP=1 BENCH_PREPARE="bash -c 'rm -rf $work/fresh && $bin --home $work/fresh onboard skip'" \
    bench_rounds import_memoapp "$bin --home $work/fresh import $work/export.json"
  BENCH_BATCH=$runs BENCH_WARMUP=1 BENCH_PREPARE="rm -f $work/fresh.db" \
    bench_rounds import_sqlite "sqlite3 -init $work/dump.sql $work/fresh.db .quit"
  BENCH_BATCH=$runs BENCH_WARMUP=1 bench_rounds import_again "$bin --home $work/fresh import $work/export.json"
  BENCH_BATCH=$runs BENCH_WARMUP=1 BENCH_PREPARE="rm -rf $work/backup $work/backup.db" bench_rounds \
    backup_memoapp "$bin --home $home backup $work/backup"
  BENCH_BATCH=$runs BENCH_WARMUP=1 BENCH_PREPARE="rm -f $work/backup.db" bench_rounds \
    backup_sqlite "sqlite3 $db \".backup $work/backup.db\""
  "$bin" --home "$home" backup "$work/backup-kept" >/dev/null
  BENCH_BATCH=$runs BENCH_WARMUP=1 BENCH_PREPARE="rm -rf $work/restored" bench_rounds \
    restore_memoapp "$bin --home $work/restored restore $work/backup-kept"
  BENCH_BATCH=$runs BENCH_WARMUP=1 BENCH_PREPARE="bash -c 'rm -rf $work/todotxt && $bin --home $work/todotxt onboard skip'" \
    bench_rounds todotxt_memoapp "$bin --home $work/todotxt todo import --from todotxt $work/todo.txt"
  rm -rf "$work/fresh" && "$bin" --home "$work/fresh" onboard skip >/dev/null
  local rss
  rss=$(bench_max_rss_mb "$bin" --home "$work/fresh" import "$work/export.json")

  bench_compare "export (10k + 10k)" "$(bench_median_ms export_memoapp)" "sqlite3 .dump" \
    "$(bench_median_ms export_sqlite)" ms - "$(du -h "$work/export.json" | cut -f1) JSON"
  bench_compare "import into empty home" "$(bench_median_ms import_memoapp)" "sqlite3 < dump" \
    "$(bench_median_ms import_sqlite)" ms - "ids kept"
  bench_judged "import again" "$(bench_fmt "$(bench_median_ms import_again)" ms)" - - - "(info)" - \
    "all already present"
  bench_compare "backup" "$(bench_median_ms backup_memoapp)" "sqlite3 .backup" \
    "$(bench_median_ms backup_sqlite)" ms - "with MANIFEST and integrity check"
  bench_judged "restore into new home" "$(bench_fmt "$(bench_median_ms restore_memoapp)" ms)" - - - "(info)" - \
    "verified first"
  bench_judged "todo import todo.txt" "$(bench_fmt "$(bench_median_ms todotxt_memoapp)" ms)" - - - "(info)" - \
    "$(wc -l < "$work/todo.txt") lines"
  bench_judged "import, max RSS" "$rss MB" - - - "(info)" - "the import into an empty home"
}
