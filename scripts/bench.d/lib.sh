# shellcheck shell=bash disable=SC2034  # the globals here are read by the sections
# Shared shell functions of scripts/bench and its sections (notes.sh, voice.sh,
# timer.sh, growth.sh). Sourced, never run. Everything a section measures ends
# up as rows of one table (bench_row_*), printed once by bench_print_table.
#
# Globals the driver sets before sourcing a section:
#   BENCH_BIN      the release memoapp binary
#   BENCH_SQL      memoapp-sql: SQL on a data home with memoapp's search tokenizer
#   BENCH_WORK     a temporary folder for this run (audio, results, the table)
#   BENCH_HOMES    a temporary folder for the data homes (tmpfs unless --dir)
#   BENCH_RUNS     timed runs per command and side (hyperfine, split into rounds)
#   BENCH_ROUNDS   how many alternating rounds those runs are split into
#   BENCH_QUICK    1 for the smaller --quick run, else 0

BENCH_STATUS=0  # becomes 1 when a row misses its target
BENCH_CHILDREN=()  # servers a section started, stopped on any exit (bench_stop_children)

# bench_stop_children: SIGTERM to every server a section started and may have
# left running, when the bench ends early (bench_die) as when it ends well.
bench_stop_children() {
  [ ${#BENCH_CHILDREN[@]} -eq 0 ] || kill "${BENCH_CHILDREN[@]}" 2>/dev/null || true
}

bench_log() { echo "bench: $*" >&2; }
bench_die() { echo "bench: $*" >&2; exit 1; }

# bench_need TOOL...: every tool must be on PATH (scripts/bench installs them).
bench_need() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || bench_die "$tool is needed (scripts/install-deps installs it)"
  done
}

# bench_build: the release binary, with the Swift runtime linked in statically
# (a dynamically linked Swift runtime costs several ms at every start) and
# without RUNPATH (see scripts/run), and memoapp-sql, which fills data homes
# (see bench_fill_notes).
bench_build() {
  bench_log "building memoapp (release, --static-swift-stdlib)..."
  swift build -c release --static-swift-stdlib --disable-local-rpath --product memoapp >&2
  swift build -c release --static-swift-stdlib --disable-local-rpath --product memoapp-sql >&2
  BENCH_BIN="$PWD/.build/release/memoapp"
  BENCH_SQL="$PWD/.build/release/memoapp-sql"
}

# bench_new_home DIR: a data home that passed onboarding, with memoapp's schema.
bench_new_home() {
  "$BENCH_BIN" --home "$1" onboard skip >/dev/null
}

# --- timing ------------------------------------------------------------------

# bench_measure NAME COMMAND: one hyperfine batch of COMMAND (a whole process,
# no shell: -N); its times in seconds are appended to
# $BENCH_WORK/results/NAME.times, so several batches add up. A batch is
# BENCH_RUNS / BENCH_ROUNDS runs unless BENCH_BATCH says otherwise;
# BENCH_WARMUP (default 3) untimed runs come first; BENCH_PREPARE, when set,
# runs before every run.
bench_measure() {
  local name="$1" command="$2" runs=$((BENCH_RUNS / BENCH_ROUNDS > 3 ? BENCH_RUNS / BENCH_ROUNDS : 3))
  local options=(--warmup "${BENCH_WARMUP:-3}" --runs "${BENCH_BATCH:-$runs}")
  [ -n "${BENCH_PREPARE:-}" ] && options+=(--prepare "$BENCH_PREPARE")
  mkdir -p "$BENCH_WORK/results"
  if ! hyperfine -N --style none "${options[@]}" \
      --export-json "$BENCH_WORK/results/$name.json" "$command" >/dev/null 2>&1; then
    bench_log "hyperfine failed for $name; one run of it follows:"
    hyperfine -N --runs 1 --show-output ${BENCH_PREPARE:+--prepare "$BENCH_PREPARE"} "$command" >&2 || true
    exit 1
  fi
  jq '.results[0].times[]' "$BENCH_WORK/results/$name.json" >> "$BENCH_WORK/results/$name.times"
}

# bench_rounds NAME COMMAND [NAME COMMAND]...: measures each pair in
# BENCH_ROUNDS alternating rounds, so a change in the load of a shared machine
# falls on both sides of a ratio alike.
bench_rounds() {
  local _ args
  for _ in $(seq 1 "$BENCH_ROUNDS"); do
    args=("$@")
    while [ ${#args[@]} -gt 0 ]; do
      bench_measure "${args[0]}" "${args[1]}"
      args=("${args[@]:2}")
    done
  done
}

# bench_median NAME: the median of NAME's times (seconds) in milliseconds.
bench_median_ms() {
  sort -g "$BENCH_WORK/results/$1.times" | awk '{ a[NR] = $1 }
    END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.3f", m * 1000 }'
}

# bench_max_rss_mb COMMAND...: peak resident memory of one run, in MB (GNU time).
bench_max_rss_mb() {
  local out="$BENCH_WORK/results/rss.$$"
  mkdir -p "$BENCH_WORK/results"
  /usr/bin/time -f '%M' -o "$out" "$@" >/dev/null 2>&1 || { bench_log "failed: $*"; "$@" >&2; exit 1; }
  awk '{ printf "%.1f", $1 / 1024 }' "$out"
}

# bench_first_line NAME COMMAND...: how long COMMAND takes to print its first
# line, from before its start to that line's arrival (a bash read of a process
# substitution; the command then dies of SIGPIPE at its next write, waited
# for but not timed), BENCH_RUNS times after three untimed runs; appended to
# NAME's times as bench_measure appends them.
bench_first_line() {
  local name="$1" run start end
  shift
  mkdir -p "$BENCH_WORK/results"
  for run in $(seq 1 $((BENCH_RUNS + 3))); do
    start=$EPOCHREALTIME
    { IFS= read -r _ || bench_die "no line from: $*"; } < <(exec "$@" 2>/dev/null)
    end=$EPOCHREALTIME
    wait $! 2>/dev/null || true
    [ "$run" -gt 3 ] && awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f\n", b - a }' >> "$BENCH_WORK/results/$name.times"
  done
}

# --- the table ---------------------------------------------------------------
# Rows go to $BENCH_WORK/table.tsv: operation, memoapp, peer, peer's figure,
# ratio, target, result, note. Operation names stay ASCII so columns align;
# Korean goes in the note, which comes last.

bench_table_file() { mkdir -p "$BENCH_WORK"; echo "$BENCH_WORK/table.tsv"; }

# bench_fmt VALUE UNIT: a figure with its unit, with as many decimals as it deserves.
bench_fmt() {
  awk -v v="$1" -v u="$2" 'BEGIN {
    if (u == "ms" && v >= 1000) { printf "%.2f s", v / 1000; exit }
    f = (v < 10) ? "%.2f %s" : (v < 100) ? "%.1f %s" : "%.0f %s"; printf f, v, u }'
}

# bench_compare OP OURS PEER THEIRS UNIT MAX_RATIO [NOTE]: a row whose target is
# a ratio to the peer (memoapp / peer at most MAX_RATIO). MAX_RATIO "-" makes
# the row informational: the ratio is shown, nothing is judged.
bench_compare() {
  local op="$1" ours="$2" peer="$3" theirs="$4" unit="$5" max="$6" note="${7:-}" ratio result target
  ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2fx", a / b }')
  if [ "$max" = "-" ]; then
    target="(info)"; result="-"
  else
    target="<= ${max}x"
    # Judged on the ratio as printed (two decimals), so a row never reads "2.00x MISS".
    result=$(awk -v r="${ratio%x}" -v m="$max" 'BEGIN { print (r + 0 <= m + 0) ? "ok" : "MISS" }')
  fi
  [ "$result" = "MISS" ] && BENCH_STATUS=1
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$op" "$(bench_fmt "$ours" "$unit")" "$peer" \
    "$(bench_fmt "$theirs" "$unit")" "$ratio" "$target" "$result" "$note" >> "$(bench_table_file)"
}

# bench_limit OP OURS UNIT OPERATOR LIMIT [NOTE] [PEER THEIRS]: a row whose
# target is an absolute limit (OPERATOR: "<", "<=" or ">="); a peer, when given, is
# shown beside it for scale.
bench_limit() {
  local op="$1" ours="$2" unit="$3" cmp="$4" limit="$5" note="${6:-}" peer="${7:--}" theirs="${8:-}" result shown
  # Judged on the figure as printed, so a row never reads "20.0 ms < 20 ms ok".
  shown=$(bench_fmt "$ours" "$unit")
  result=$(awk -v v="${shown%% *}" -v l="$limit" -v c="$cmp" 'BEGIN {
    print ((c == "<") ? (v < l) : (c == "<=") ? (v <= l) : (v >= l)) ? "ok" : "MISS" }')
  [ "$result" = "MISS" ] && BENCH_STATUS=1
  local shown_theirs="-" ratio="-"
  if [ -n "$theirs" ]; then
    shown_theirs=$(bench_fmt "$theirs" "$unit")
    ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2fx", a / b }')
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$op" "$shown" "$peer" "$shown_theirs" \
    "$ratio" "$cmp $limit $unit" "$result" "$note" >> "$(bench_table_file)"
}

# bench_judged OP OURS_TEXT PEER THEIRS_TEXT RATIO TARGET RESULT [NOTE]: a row
# whose verdict the section computed itself (e.g. memory that must stay flat).
bench_judged() {
  [ "$7" = "MISS" ] && BENCH_STATUS=1
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7" "${8:-}" >> "$(bench_table_file)"
}

# bench_align RIGHT_COLUMNS: TSV on stdin as aligned columns, those numbered in
# RIGHT_COLUMNS (e.g. "2 4 5") right-aligned; a left-aligned last column is not padded.
bench_align() {
  awk -F '\t' -v right="$1" '
    # mawk counts bytes; UTF-8 continuation bytes take no column.
    function width(s,  t) { t = s; gsub(/[\200-\277]/, "", t); return length(t) }
    BEGIN { split(right, r, " "); for (k in r) is_right[r[k]] = 1 }
    { for (i = 1; i <= NF; i++) { cell[NR, i] = $i; if (width($i) > w[i]) w[i] = width($i) } n[NR] = NF }
    END {
      for (row = 1; row <= NR; row++) {
        line = ""
        for (i = 1; i <= n[row]; i++) {
          gap = sprintf("%" (w[i] - width(cell[row, i])) "s", "")
          if (i in is_right) line = line gap cell[row, i] "  "
          else if (i == n[row]) line = line cell[row, i]
          else line = line cell[row, i] gap "  "
        }
        sub(/ +$/, "", line); print line
      }
    }'
}

# bench_print_table: the one table of every row the sections added.
bench_print_table() {
  local file
  file=$(bench_table_file)
  [ -s "$file" ] || return 0
  { printf 'operation\tmemoapp\tpeer\tpeer median\tratio\ttarget\tresult\tnote\n'; cat "$file"; } | bench_align "2 4 5"
}

# --- data --------------------------------------------------------------------

# The same rows, columns and order as `memoapp todo list` (TodoStore+List.swift).
BENCH_LIST_SQL="SELECT id, title, note, priority, due_at, due_has_time, tags, created_at, updated_at, done_at, uid FROM todos \
WHERE done_at IS NULL ORDER BY due_at IS NULL, due_at, priority IS NULL, priority DESC, id"
# The row `memoapp todo add 'bench 할 일' --due tomorrow` writes, and the memo
# `memoapp memo add 'bench 메모 내용'` writes, for sqlite3 to insert beside
# memoapp. The sqlite3 shell lacks memoapp's search tokenizer and cannot write
# to-dos or memos, so it writes into copies of the tables (bench_peer_tables):
# TABLE `indexed_TABLE`, kept in step with a full-text index of SQLite's own
# (FTS5 trigram) by triggers, as memoapp's tables are with memoapp's index (the
# same kind of work, the peer memoapp's `todo add` had before it had a
# tokenizer of its own); `plain_TABLE`, without triggers, for scale. They name a
# random uid as memoapp does (32 hex digits, without the dashes of memoapp's UUIDs).
bench_insert_sql() {
  echo "INSERT INTO $1_todos (uid, title, due_at, due_has_time, tags, created_at, updated_at) \
VALUES (lower(hex(randomblob(16))), 'bench 할 일', unixepoch() + 86400, 0, '', unixepoch('now'), unixepoch('now'))"
}
bench_memo_insert_sql() {
  echo "INSERT INTO $1_memos (uid, text, is_pinned, tags, created_at, updated_at) \
VALUES (lower(hex(randomblob(16))), 'bench 메모 내용', 0, '', unixepoch('now'), unixepoch('now'))"
}
BENCH_INSERT_SQL=$(bench_insert_sql indexed)
BENCH_MEMO_INSERT_SQL=$(bench_memo_insert_sql indexed)

# bench_peer_tables DB: indexed_todos, indexed_memos, plain_todos and
# plain_memos (see bench_insert_sql), each made from its table's own CREATE
# statements, so it has every column, constraint and index memoapp's has, and
# holding the same rows, so that its b-trees (and the indexed ones' full-text
# index) are as deep. They live in memoapp.db itself: both sides open the same
# file and read the same schema (which these tables lengthen for both alike).
bench_peer_tables() {
  local db="$1" table columns body copy
  for copy in indexed plain; do
    sqlite3 "$db" "SELECT replace(replace(sql, 'todos', '${copy}_todos'), 'memos', '${copy}_memos') || ';'
      FROM sqlite_master WHERE tbl_name IN ('todos', 'memos') AND type IN ('table', 'index') AND sql IS NOT NULL" |
      sqlite3 "$db"
    for table in todos memos; do
      # Every column but the generated ones, which SQLite computes itself.
      columns=$(sqlite3 "$db" "SELECT group_concat(name, ', ') FROM pragma_table_xinfo('$table') WHERE hidden = 0")
      sqlite3 "$db" "INSERT INTO ${copy}_$table ($columns) SELECT $columns FROM $table"
    done
  done
  for table in todos memos; do
    body=$([ "$table" = todos ] && echo note || echo text)
    sqlite3 "$db" <<SQL
CREATE VIRTUAL TABLE indexed_${table}_fts USING fts5(title, $body, tags, content = 'indexed_$table',
  content_rowid = 'id', tokenize = 'trigram');
INSERT INTO indexed_${table}_fts (indexed_${table}_fts) VALUES ('rebuild');
INSERT INTO indexed_${table}_fts (indexed_${table}_fts) VALUES ('optimize');
CREATE TRIGGER indexed_${table}_fts_insert AFTER INSERT ON indexed_$table BEGIN
  INSERT INTO indexed_${table}_fts (rowid, title, $body, tags) VALUES (new.id, new.title, new.$body, new.tags);
END;
SQL
  done
}

# bench_fill_notes DB COUNT: COUNT to-dos and COUNT memos of Korean, English and
# mixed text, written in one transaction into memoapp's own schema by
# memoapp-sql, which has memoapp's search tokenizer, so the search triggers
# index every row exactly as memoapp's own writes would. Creation times spread
# over the last 90 days whatever COUNT is.
bench_fill_notes() {
  local db="$1" count="$2"
  "$BENCH_SQL" "$db" >/dev/null <<SQL
PRAGMA synchronous = OFF;
BEGIN;
CREATE TEMP TABLE ko(n INTEGER PRIMARY KEY, w TEXT);
INSERT INTO ko(w) VALUES ('회의'),('주간회의록'),('대한민국'),('프로젝트'),('일정'),('보고서'),('예산'),('검토'),
  ('장보기'),('우유'),('병원'),('예약'),('운동'),('독서'),('여행'),('계획'),('발표'),('자료'),('정리'),('마감'),
  ('고객'),('미팅'),('점심'),('저녁'),('가족'),('생일'),('선물'),('청소'),('빨래'),('공부');
CREATE TEMP TABLE en(n INTEGER PRIMARY KEY, w TEXT);
INSERT INTO en(w) VALUES ('meeting'),('report'),('budget'),('review'),('project'),('deadline'),('groceries'),
  ('milk'),('doctor'),('booking'),('workout'),('reading'),('travel'),('plan'),('slides'),('notes'),('client'),
  ('lunch'),('dinner'),('family'),('birthday'),('gift'),('cleaning'),('laundry'),('study'),('release'),
  ('design'),('invoice'),('weekly'),('sprint');
CREATE TEMP TABLE n(i INTEGER PRIMARY KEY);
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < $count) INSERT INTO n SELECT i FROM c;

-- To-dos: Korean, English and mixed titles; a third done; dues spread over
-- past and future; priorities and tags on some.
INSERT INTO todos (title, note, priority, due_at, due_has_time, tags, created_at, updated_at, done_at)
SELECT
  CASE i % 3
    WHEN 0 THEN (SELECT w FROM ko WHERE n = 1 + i % 30) || ' ' || (SELECT w FROM ko WHERE n = 1 + (i * 7) % 30) || ' ' || i
    WHEN 1 THEN (SELECT w FROM en WHERE n = 1 + i % 30) || ' ' || (SELECT w FROM en WHERE n = 1 + (i * 11) % 30) || ' #' || i
    ELSE (SELECT w FROM ko WHERE n = 1 + (i * 13) % 30) || ' ' || (SELECT w FROM en WHERE n = 1 + (i * 17) % 30) || ' ' || i
  END,
  CASE WHEN i % 4 = 0 THEN (SELECT w FROM en WHERE n = 1 + (i * 19) % 30) || ' ' || (SELECT w FROM ko WHERE n = 1 + (i * 23) % 30) END,
  CASE WHEN i % 5 = 0 THEN NULL ELSE 1 + i % 3 END,
  CASE WHEN i % 6 = 0 THEN NULL ELSE unixepoch() + (i % 61 - 20) * 86400 END,
  i % 7 = 0,
  CASE WHEN i % 8 = 0 THEN 'work' WHEN i % 8 = 1 THEN '집' ELSE '' END,
  unixepoch() - 7776000 + i * 7776000 / $count, unixepoch() - 7776000 + i * 7776000 / $count,
  CASE WHEN i % 3 = 2 THEN unixepoch() - i ELSE NULL END
FROM n;
INSERT INTO todo_tags (todo_id, tag) SELECT id, tags FROM todos WHERE tags <> '';

-- Memos: a few sentences each, Korean and English mixed, some titled, some pinned.
INSERT INTO memos (title, text, is_pinned, tags, created_at, updated_at)
SELECT
  CASE WHEN i % 2 = 0 THEN (SELECT w FROM ko WHERE n = 1 + (i * 3) % 30) || ' ' || (SELECT w FROM en WHERE n = 1 + (i * 5) % 30) END,
  (SELECT w FROM ko WHERE n = 1 + i % 30) || '에 대해 이야기했다. ' ||
  (SELECT w FROM en WHERE n = 1 + (i * 7) % 30) || ' and ' || (SELECT w FROM en WHERE n = 1 + (i * 11) % 30) ||
  ' need a follow-up by next week. ' || char(10) ||
  (SELECT w FROM ko WHERE n = 1 + (i * 13) % 30) || '와 ' || (SELECT w FROM ko WHERE n = 1 + (i * 17) % 30) ||
  ' 관련 내용을 ' || (SELECT w FROM ko WHERE n = 1 + (i * 19) % 30) || ' 문서에 정리함. memo number ' || i || '.',
  i % 500 = 0,
  CASE WHEN i % 10 = 0 THEN 'idea' ELSE '' END,
  unixepoch() - 7776000 + i * 7776000 / $count, unixepoch() - 7776000 + i * 7776000 / $count
FROM n;
INSERT INTO memo_tags (memo_id, tag) SELECT id, tags FROM memos WHERE tags <> '';
COMMIT;
-- A load this large leaves the search indexes in many segments, which the next
-- writes would merge a few pages at a time; memoapp's own migration to these
-- indexes ends the same way (https://www.sqlite.org/fts5.html#the_optimize_command).
INSERT INTO todos_search (todos_search) VALUES ('optimize');
INSERT INTO memos_search (memos_search) VALUES ('optimize');
PRAGMA wal_checkpoint(TRUNCATE);
SQL
}

# bench_notes_home DIR COUNT: a data home at DIR holding COUNT to-dos and COUNT
# memos, and the peer tables (bench_peer_tables). BENCH_NOTES_BYTES is the size
# of its database before the peer tables were added.
bench_notes_home() {
  local home="$1" count="$2" started
  started=$EPOCHREALTIME
  bench_new_home "$home"
  bench_fill_notes "$home/memoapp.db" "$count"
  BENCH_NOTES_BYTES=$(stat -c %s "$home/memoapp.db")
  bench_peer_tables "$home/memoapp.db"
  bench_log "$(printf '%s: %s to-dos (%s open) and %s memos in %.1f s, %s' "$home" \
    "$(sqlite3 "$home/memoapp.db" 'SELECT count(*) FROM todos')" \
    "$(sqlite3 "$home/memoapp.db" 'SELECT count(*) FROM todos WHERE done_at IS NULL')" \
    "$(sqlite3 "$home/memoapp.db" 'SELECT count(*) FROM memos')" \
    "$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')" \
    "$(du -h "$home/memoapp.db" | cut -f1)")"
}
