# shellcheck shell=bash
# "How cost grows" in scripts/bench: data homes of 1,000, 10,000, 100,000 and
# 1,000,000 to-dos and as many memos (--quick: 1,000 and 10,000), a line per
# size, with sqlite3 doing the same insert and select beside memoapp. Every
# size is judged against the targets below; a line that misses one names it
# in its last column and the run exits 1.
#   search         every query's first page in <= 20 ms: 회의 and 민국 (two
#                  characters), 대한민국, meeting (in a tenth of everything), a
#                  miss, two words found together, one character
#   todo list      first line in <= 20 ms, peak memory < 40 MB printing every
#                  open to-do, --limit 50 in <= 10 ms
#   todo/memo add  <= 1.5x sqlite3's INSERT of the same row into a copy of the
#                  table that SQLite's own full-text index (trigram) follows: the
#                  sqlite3 shell cannot write memoapp's tables (see bench_insert_sql);
#                  the same INSERT into a copy without any index is shown beside it
#   import         at 1,000,000: the home's export (2,000,000 items) imported
#                  into an empty home in <= 60 s and <= 600 MB peak memory; an
#                  export of 1,000,000 Taskwarrior tasks (taskwarrior-export.py)
#                  through `todo import --from taskwarrior` in <= 20 s, <= 300 MB
#                  (smaller sizes: shown, not judged)
# Also shown, not judged: the whole list beside sqlite3's SELECT of the same
# rows, two common words that never meet (the walk every search of them must
# make, see NoteSearch), and the database's size.
# Sourced by scripts/bench after lib.sh.

# The searches judged, as label=query.
GROWTH_SEARCHES=("회의=회의" "민국=민국" "대한민국=대한민국" "meeting=meeting" "miss=없는말xyz" "two=meeting 회의" "one=회")

section_growth() {
  bench_need sqlite3 python3
  local sizes=(1000 10000 100000 1000000) size home db rows bin="$BENCH_BIN" started
  [ "$BENCH_QUICK" -eq 1 ] && sizes=(1000 10000)
  local file="$BENCH_WORK/growth.tsv" searched="$BENCH_WORK/growth-search.tsv" entry
  printf 'items\tdb size\ttodo add\tsqlite3\t(no index)\tmemo add\tsqlite3\t(no index)\tlist 1st line\tlist RSS\t--limit 50\tlist all\trows\tsqlite3 SELECT\ttargets\n' > "$file"
  printf 'items' > "$searched"
  for entry in "${GROWTH_SEARCHES[@]}"; do printf '\t%s' "${entry#*=}" >> "$searched"; done
  printf '\tmeeting report (info)\n' >> "$searched"
  printf 'items\texport import\tpeak\tTaskwarrior tasks\ttask import\tpeak\ttargets\n' > "$BENCH_WORK/growth-import.tsv"
  for size in "${sizes[@]}"; do
    home="$BENCH_HOMES/growth-$size"
    db="$home/memoapp.db"
    started=$SECONDS
    bench_notes_home "$home" "$size"
    # The list's first line is its table's header: rows are the lines after it.
    rows=$("$bin" --home "$home" todo list | tail -n +2 | wc -l)
    bench_log "measuring at $size items ($BENCH_RUNS runs each, fewer for whole lists)..."
    local searches=() index=0
    for entry in "${GROWTH_SEARCHES[@]}"; do
      searches+=("g${size}_search$index" "$bin --home $home search '${entry#*=}'")
      index=$((index + 1))
    done
    bench_rounds "${searches[@]}" "g${size}_search_apart" "$bin --home $home search 'meeting report'" \
      "g${size}_limit" "$bin --home $home todo list --limit 50"
    bench_first_line "g${size}_first" "$bin" --home "$home" todo list
    # A whole list prints every open to-do: a few runs each at the big sizes.
    BENCH_BATCH=$([ "$size" -ge 100000 ] && echo 2 || echo "")  BENCH_WARMUP=1 \
      bench_rounds "g${size}_list" "$bin --home $home todo list" "g${size}_list_sqlite" "sqlite3 $db \"$BENCH_LIST_SQL\""
    # The adds come last, so every read above saw the same rows.
    bench_rounds "g${size}_add" "$bin --home $home todo add 'bench 할 일' --due tomorrow" \
      "g${size}_add_sqlite" "sqlite3 $db \"$BENCH_INSERT_SQL\"" \
      "g${size}_add_plain" "sqlite3 $db \"$(bench_insert_sql plain)\"" \
      "g${size}_memo" "$bin --home $home memo add 'bench 메모 내용'" \
      "g${size}_memo_sqlite" "sqlite3 $db \"$BENCH_MEMO_INSERT_SQL\"" \
      "g${size}_memo_plain" "sqlite3 $db \"$(bench_memo_insert_sql plain)\""
    local rss misses=() line
    rss=$(bench_max_rss_mb "$bin" --home "$home" todo list)
    growth_judge misses "list first line" "$(bench_median_ms "g${size}_first")" 20
    growth_judge misses "list --limit 50" "$(bench_median_ms "g${size}_limit")" 10
    awk -v r="$rss" 'BEGIN { exit !(r < 40) }' || misses+=("list RSS ${rss} MB")
    growth_ratio misses "todo add" "g${size}_add" "g${size}_add_sqlite"
    growth_ratio misses "memo add" "g${size}_memo" "g${size}_memo_sqlite"
    line="$(growth_thousands "$size")\t$(awk -v b="$BENCH_NOTES_BYTES" 'BEGIN { printf "%.1f MB", b / 1e6 }')"
    line+="\t$(bench_fmt "$(bench_median_ms "g${size}_add")" ms)\t$(bench_fmt "$(bench_median_ms "g${size}_add_sqlite")" ms)"
    line+="\t$(bench_fmt "$(bench_median_ms "g${size}_add_plain")" ms)"
    line+="\t$(bench_fmt "$(bench_median_ms "g${size}_memo")" ms)\t$(bench_fmt "$(bench_median_ms "g${size}_memo_sqlite")" ms)"
    line+="\t$(bench_fmt "$(bench_median_ms "g${size}_memo_plain")" ms)"
    line+="\t$(bench_fmt "$(bench_median_ms "g${size}_first")" ms)\t$rss MB\t$(bench_fmt "$(bench_median_ms "g${size}_limit")" ms)"
    line+="\t$(bench_fmt "$(bench_median_ms "g${size}_list")" ms)\t$rows\t$(bench_fmt "$(bench_median_ms "g${size}_list_sqlite")" ms)"
    local found
    found="$(growth_thousands "$size")"
    index=0
    for entry in "${GROWTH_SEARCHES[@]}"; do
      found+="\t$(bench_fmt "$(bench_median_ms "g${size}_search$index")" ms)"
      growth_judge misses "search ${entry%%=*}" "$(bench_median_ms "g${size}_search$index")" 20
      index=$((index + 1))
    done
    printf '%b\n' "$found\t$(bench_fmt "$(bench_median_ms "g${size}_search_apart")" ms)" >> "$searched"
    if [ ${#misses[@]} -eq 0 ]; then
      line+="\tok"
    else
      BENCH_STATUS=1
      line+="\tMISS: $(IFS=,; echo "${misses[*]}")"
    fi
    printf '%b\n' "$line" >> "$file"
    growth_imports "$home" "$size"
    bench_log "$size items: done in $((SECONDS - started)) s"
    rm -rf "$home"
  done
}

# growth_imports HOME SIZE: one timed run each of importing HOME's export
# into an empty home and SIZE Taskwarrior tasks into another (imports are
# long and write a whole home: one run, its wall time and peak memory); a
# line of growth-import.tsv, judged at 1,000,000.
growth_imports() {
  local home="$1" size="$2" work="$BENCH_HOMES/growth-import" bin="$BENCH_BIN" misses=() line
  rm -rf "$work"
  mkdir -p "$work"
  "$bin" --home "$home" export -o "$work/export.json"
  python3 scripts/bench.d/taskwarrior-export.py "$size" > "$work/tasks.json"
  bench_log "timing the imports at $size..."
  bench_new_home "$work/restored"
  bench_new_home "$work/tasks"
  local document tasks
  document=$(growth_timed "$bin" --home "$work/restored" import "$work/export.json")
  tasks=$(growth_timed "$bin" --home "$work/tasks" todo import --from taskwarrior "$work/tasks.json")
  if [ "$size" -ge 1000000 ]; then
    growth_within misses "export import" "$document" 60 600
    growth_within misses "task import" "$tasks" 20 300
  fi
  line="$(growth_thousands $((size * 2)))\t${document% *} s\t${document#* } MB\t$(growth_thousands "$size")"
  line+="\t${tasks% *} s\t${tasks#* } MB"
  if [ ${#misses[@]} -eq 0 ]; then
    line+="\tok"
  else
    BENCH_STATUS=1
    line+="\tMISS: $(IFS=,; echo "${misses[*]}")"
  fi
  printf '%b\n' "$line" >> "$BENCH_WORK/growth-import.tsv"
  rm -rf "$work"
}

# growth_timed COMMAND...: "SECONDS MB", the wall time and peak memory of one
# run of COMMAND (GNU time); the bench stops when it fails.
growth_timed() {
  local out="$BENCH_WORK/results/timed.$$"
  mkdir -p "$BENCH_WORK/results"
  /usr/bin/time -f '%e %M' -o "$out" "$@" >/dev/null 2>&1 || { bench_log "failed: $*"; "$@" >&2; exit 1; }
  awk '{ printf "%.1f %.0f", $1, $2 / 1024 }' "$out"
}

# growth_within ARRAY LABEL "SECONDS MB" SECONDS MB: adds "LABEL ..." to ARRAY
# when the run took longer or more memory than allowed.
growth_within() {
  local -n found="$1"
  awk -v f="$3" -v s="$4" -v m="$5" 'BEGIN { split(f, v, " "); exit !(v[1] <= s && v[2] <= m) }' ||
    found+=("$2 ${3% *} s ${3#* } MB")
}

# growth_judge ARRAY LABEL MILLISECONDS LIMIT: adds "LABEL N ms" to ARRAY when
# the figure, as printed, is over LIMIT ms.
growth_judge() {
  local -n out="$1"
  local shown
  shown=$(bench_fmt "$3" ms)
  awk -v v="${shown%% *}" -v l="$4" -v u="${shown##* }" 'BEGIN { exit !(u == "ms" && v <= l) }' || out+=("$2 $shown")
}

# growth_ratio ARRAY LABEL OURS PEER: adds "LABEL N.NNx" to ARRAY when the
# median of OURS is over 1.5 times the median of PEER (judged as printed).
growth_ratio() {
  local -n out="$1"
  local ratio
  ratio=$(awk -v a="$(bench_median_ms "$3")" -v b="$(bench_median_ms "$4")" 'BEGIN { printf "%.2f", a / b }')
  awk -v r="$ratio" 'BEGIN { exit !(r <= 1.5) }' || out+=("$2 ${ratio}x")
}

# growth_thousands N: N with thousands separators.
growth_thousands() {
  echo "$1" | sed ':a; s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta'
}

# growth_print: the lines of section_growth, when it ran.
growth_print() {
  [ -s "$BENCH_WORK/growth.tsv" ] || return 0
  echo
  echo "how cost grows (medians; N to-dos and N memos; rows: open to-dos listed; targets: scripts/bench.d/growth.sh)"
  bench_align "1 2 3 4 5 6 7 8 9 10 11 12 13 14" < "$BENCH_WORK/growth.tsv"
  echo
  echo "search, first page (medians; judged above, but for the last column)"
  bench_align "1 2 3 4 5 6 7 8 9" < "$BENCH_WORK/growth-search.tsv"
  echo
  echo "imports into an empty home (one run each: wall time, peak memory; judged at 1,000,000)"
  bench_align "1 2 3 4 5 6" < "$BENCH_WORK/growth-import.tsv"
}
