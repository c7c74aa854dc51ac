# shellcheck shell=bash
# The to-do and memo rows of scripts/bench (start-up and speed), on a data home of
# 10,000 to-dos and 10,000 memos:
#   todo add     within 1.5x of `sqlite3 memoapp.db "INSERT ..."` (the same row, into a copy
#                of the table with SQLite's own full-text index, see bench_insert_sql);
#                Taskwarrior's `task add` on the same 10,000 to-dos beside it, for scale
#   todo list    within 2x of `sqlite3 memoapp.db "SELECT ..."` (the same rows, same order);
#                `task list` beside it, for scale
#   memo search  median under 20 ms, Korean and English, two characters and more
# Whole processes on every side, measured by hyperfine without a shell (-N).
# Sourced by scripts/bench after lib.sh.

# notes_taskwarrior_data DB TASKDIR: Taskwarrior data holding the same to-dos as
# DB (title, note as an annotation, status, priority, due, tags, times), and a
# taskrc that keeps `task` quiet and non-interactive. Prints the taskrc's path.
notes_taskwarrior_data() {
  local db="$1" dir="$2"
  mkdir -p "$dir/data"
  cat > "$dir/taskrc" <<RC
data.location=$dir/data
confirmation=off
verbose=nothing
color=off
hooks=off
news.version=$(task --version)
RC
  # Taskwarrior's JSON dates are UTC 'YYYYMMDDTHHMMSSZ'; memoapp's priority 3 is high.
  sqlite3 "$db" "SELECT json_group_array(json(t)) FROM (SELECT json_object(
      'description', title,
      'status', CASE WHEN done_at IS NULL THEN 'pending' ELSE 'completed' END,
      'entry', strftime('%Y%m%dT%H%M%SZ', created_at, 'unixepoch'),
      'modified', strftime('%Y%m%dT%H%M%SZ', updated_at, 'unixepoch'),
      'end', CASE WHEN done_at IS NOT NULL THEN strftime('%Y%m%dT%H%M%SZ', done_at, 'unixepoch') END,
      'due', CASE WHEN due_at IS NOT NULL THEN strftime('%Y%m%dT%H%M%SZ', due_at, 'unixepoch') END,
      'priority', CASE priority WHEN 3 THEN 'H' WHEN 2 THEN 'M' WHEN 1 THEN 'L' END,
      'tags', CASE WHEN tags <> '' THEN json_array(tags) END,
      'annotations', CASE WHEN note IS NOT NULL THEN json_array(json_object(
          'entry', strftime('%Y%m%dT%H%M%SZ', created_at, 'unixepoch'), 'description', note)) END
    ) AS t FROM todos ORDER BY id)" |
    jq -c 'map(with_entries(select(.value != null)))' > "$dir/todos.json"
  TASKRC="$dir/taskrc" task import "$dir/todos.json" >/dev/null
  echo "$dir/taskrc"
}

section_notes() {
  bench_need sqlite3 task jq
  local home="$BENCH_HOMES/notes" bin="$BENCH_BIN" taskrc memo_rows sql_rows task_rows
  bench_notes_home "$home" 10000
  local db="$home/memoapp.db"
  bench_log "importing the same to-dos into Taskwarrior..."
  taskrc=$(notes_taskwarrior_data "$db" "$BENCH_HOMES/taskwarrior")

  # The list commands must show the same to-dos, or the comparison is void.
  # The list's first line is its table's header: rows are the lines after it.
  memo_rows=$("$bin" --home "$home" todo list | tail -n +2 | wc -l)
  sql_rows=$(sqlite3 "$db" "$BENCH_LIST_SQL" | wc -l)
  task_rows=$(TASKRC="$taskrc" task rc.verbose=nothing status:pending count)
  [ "$memo_rows" -eq "$sql_rows" ] || bench_die "todo list shows $memo_rows rows, sqlite3 $sql_rows"
  [ "$task_rows" -eq "$sql_rows" ] || bench_die "Taskwarrior holds $task_rows pending tasks, sqlite3 $sql_rows open to-dos"

  bench_log "measuring to-dos and memos ($BENCH_RUNS runs each)..."
  # Reads first, so every list shows the rows counted above; the adds come last.
  bench_rounds list_memoapp "$bin --home $home todo list" list_sqlite "sqlite3 $db \"$BENCH_LIST_SQL\"" \
    list_task "env TASKRC=$taskrc task list"
  bench_rounds search_ko2 "$bin --home $home memo search 회의" search_ko3 "$bin --home $home memo search 주간회의록" \
    search_en "$bin --home $home memo search meeting" search_en2 "$bin --home $home memo search AI" \
    search_all "$bin --home $home search 대한민국"
  bench_rounds add_memoapp "$bin --home $home todo add 'bench 할 일' --due tomorrow" \
    add_sqlite "sqlite3 $db \"$BENCH_INSERT_SQL\"" add_task "env TASKRC=$taskrc task add 'bench 할 일' due:tomorrow"

  local add list
  add=$(bench_median_ms add_memoapp)
  list=$(bench_median_ms list_memoapp)
  bench_compare "todo add" "$add" "sqlite3 INSERT" "$(bench_median_ms add_sqlite)" ms 1.5
  bench_compare "todo add" "$add" "task add" "$(bench_median_ms add_task)" ms - "Taskwarrior $(task --version), same to-dos"
  bench_compare "todo list ($memo_rows open)" "$list" "sqlite3 SELECT" "$(bench_median_ms list_sqlite)" ms 2
  bench_compare "todo list ($memo_rows open)" "$list" "task list" "$(bench_median_ms list_task)" ms -
  bench_limit "memo search ko, 2 characters" "$(bench_median_ms search_ko2)" ms "<" 20 "회의"
  bench_limit "memo search ko, 5 characters" "$(bench_median_ms search_ko3)" ms "<" 20 "주간회의록"
  bench_limit "memo search en, 7 characters" "$(bench_median_ms search_en)" ms "<" 20 "meeting"
  bench_limit "memo search en, 2 characters" "$(bench_median_ms search_en2)" ms "<" 20 "AI"
  bench_limit "search (to-dos + memos)" "$(bench_median_ms search_all)" ms "<" 20 "대한민국"
}
