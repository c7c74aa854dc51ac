// The page's language: the user's choice (kept in localStorage, it is no
// secret), else the browser's, Korean or English. Texts from the server
// (onboarding pages, error messages) come in the language each request asks for.
const texts = {
  en: {
    skip: 'Skip', next: 'Next', start: 'Start', pages: 'Onboarding pages', welcome: 'Welcome to memoapp', language: '한국어',
    languageName: 'Switch to Korean', tour: 'Tour', export: 'Export', signOut: 'Sign out',
    otherDevice: 'Other device', otherDeviceTitle: 'Sign in on another device', copy: 'Copy', copied: 'Copied.',
    otherDeviceHint: until => `Open this link on the other device before ${until}. It works once.`,
    signOutConfirm: 'Sign out of memoapp in this browser?',
    todos: 'To-dos', memos: 'Memos', timers: 'Timers', voice: 'Voice',
    add: 'Add', save: 'Save', cancel: 'Cancel', edit: 'Edit', delete: 'Delete', undo: 'Undo', select: 'Select',
    title: 'Title', due: 'Due', duePlaceholder: 'tomorrow 18:00, tonight, fri', pickDate: 'Pick a date', allDay: '(all day)',
    priority: 'Priority', none: 'None', low: 'Low', medium: 'Medium', high: 'High',
    tags: 'Tags', tagsPlaceholder: 'home, work', note: 'Note',
    more: 'Repeat, reminder', repeat: 'Repeat', repeatNone: 'No repeat', reminderAt: 'reminder', repeat_daily: 'daily',
    repeat_weekdays: 'weekdays', repeat_weekly: 'weekly', repeat_monthly: 'monthly', repeat_yearly: 'yearly',
    repeatEvery: 'every {n} {unit}', repeatFromDone: 'after done', unit_day: 'days', unit_week: 'weeks',
    unit_month: 'months', unit_year: 'years', unit_weekday: 'weekdays',
    remind: 'Remind', remindPlaceholder: 'tomorrow 9am',
    open: 'Open', done: 'Done', all: 'All', anyDue: 'Any date', today: 'Today', overdue: 'Overdue', week: 'This week',
    sortLabel: 'Order', sortNewest: 'Newest', sortCreated: 'Oldest', sortDue: 'By due date', sortPriority: 'By priority', filterTag: 'Tag',
    noTodos: 'Nothing to do here.', todoRemoved: 'To-do deleted.', memoRemoved: 'Memo deleted.', todoDone: 'Done.', todoReopened: 'Reopened.',
    saved: 'Saved.', voiceTrimmed: 'Trimmed.',
    markDone: 'Done', text: 'Write a memo…', memoTitle: 'Title (optional)', pin: 'Pin', unpin: 'Unpin',
    pinned: 'Pinned', conflictCopy: 'Conflict copy', search: 'Search everything', noMemos: 'No memos yet.', noHits: 'Nothing found.',
    clear: 'Clear', loadMore: 'Load more',
    duration: 'Countdown (25m, 1h30m); empty for a stopwatch', label: 'Label', startTimer: 'Start',
    pause: 'Pause', resume: 'Resume', lap: 'Lap', stop: 'Stop', cancelTimer: 'Cancel', dismiss: 'Dismiss', timerStopped: 'Stopped',
    noTimers: 'No timers running.', timerDone: 'Time is up', countdown: 'Countdown', stopwatch: 'Stopwatch',
    paused: 'paused', finished: 'finished', cancelled: 'cancelled', stopped: 'stopped', running: 'running',
    offline: 'Cannot reach memoapp. Is `memoapp serve` running?', reconnecting: 'Connection lost, reconnecting…',
    signInTitle: 'Sign in', signInHelp: 'Open the link that `memoapp serve` prints, or run `memoapp token link` for a new one.',
    codeRefused: 'This sign-in link was already used or has expired.',
    audioFile: 'Audio file', upload: 'Upload', record: 'Record', stopRecording: 'Stop recording', uploading: 'Uploading', voiceWaiting: 'Waiting to upload', voiceDiscarded: 'Recording deleted before it was uploaded.', voiceAlreadyThere: 'already on the server, kept once.',
    noVoice: 'No voice memos yet.', waveform: 'Waveform: click to seek, drag to select', trim: 'Trim to selection',
    changedWhileEditing: 'Changed elsewhere while you edit it: saving will ask before replacing that change.',
    changedElsewhere: 'This was changed elsewhere after you opened it. Save again to replace that change, or Cancel to see it.',
    rename: 'Rename', voiceRemoved: 'Voice memo deleted.', noMicrophone: 'No microphone could be opened.',
    mainTitle: 'memoapp', overdueCount: n => `${n} overdue`,
    offlineCopy: 'Offline', changesWaiting: n => n === 1 ? '1 change waiting' : `${n} changes waiting`,
    syncedNow: 'Synced just now', notKept: 'Not on this device.',
    offlineEmpty: 'Write something first.', offlineDue: 'Offline, write the date as 2026-12-24 or 2026-12-24 18:30.',
    offlineNeedsServer: 'A reminder or a repeat needs the server: add it once it is back.',
    shortcuts: 'Keyboard shortcuts', keySearch: 'Search everything', keyNew: 'New item on this tab',
    keyNext: 'Next row', keyPrevious: 'Previous row', keyDone: 'Mark the to-do done, or open again',
    keyEdit: 'Edit the row', keyHelp: 'This list',
    trimStart: 'Keep from', trimEnd: 'Keep until',
    close: 'Close', memo: 'Memo', filters: 'Filters', newTodo: 'New to-do', searchResults: 'Search results', clearTag: 'Show every tag', itemGone: 'This was deleted.',
    markdownMissing: 'Markdown cannot be shown here (the server has no markdown-it): the text as written.',
    changedElsewhereShown: 'This memo was changed elsewhere: here it is as it is now. Tick again if you still want to.',
  },
  ko: {
    skip: '건너뛰기', next: '다음', start: '시작하기', pages: '온보딩 페이지', welcome: 'memoapp에 오신 것을 환영합니다', language: 'English',
    languageName: '영어로 보기', tour: '둘러보기', export: '내보내기', signOut: '로그아웃',
    otherDevice: '다른 기기', otherDeviceTitle: '다른 기기에서 로그인', copy: '복사', copied: '복사했습니다.',
    otherDeviceHint: until => `${until} 전에 다른 기기에서 이 링크를 여세요. 한 번만 쓸 수 있습니다.`,
    signOutConfirm: '이 브라우저에서 memoapp에서 로그아웃할까요?',
    todos: '할 일', memos: '메모', timers: '타이머', voice: '음성 메모',
    add: '추가', save: '저장', cancel: '취소', edit: '편집', delete: '삭제', undo: '되돌리기', select: '선택',
    title: '제목', due: '마감', duePlaceholder: '내일 저녁 7시, 오늘 밤, 금요일', pickDate: '날짜 고르기', allDay: '(종일)',
    priority: '우선순위', none: '없음', low: '낮음', medium: '보통', high: '높음',
    tags: '태그', tagsPlaceholder: '집, 일', note: '노트',
    more: '반복, 알림', repeat: '반복', repeatNone: '반복 안 함', reminderAt: '알림', repeat_daily: '매일',
    repeat_weekdays: '평일마다', repeat_weekly: '매주', repeat_monthly: '매달', repeat_yearly: '매년',
    repeatEvery: '{n}{unit}마다', repeatFromDone: '(완료한 날부터)', unit_day: '일', unit_week: '주',
    unit_month: '달', unit_year: '년', unit_weekday: '평일',
    remind: '알림', remindPlaceholder: '내일 오전 9시',
    open: '할 일', done: '완료', all: '전체', anyDue: '모든 날짜', today: '오늘', overdue: '지남', week: '이번 주',
    sortLabel: '정렬', sortNewest: '최신순', sortCreated: '오래된 순', sortDue: '마감순', sortPriority: '우선순위순', filterTag: '태그',
    noTodos: '할 일이 없습니다.', todoRemoved: '할 일을 삭제했습니다.', memoRemoved: '메모를 삭제했습니다.', todoDone: '완료했습니다.', todoReopened: '다시 열었습니다.',
    saved: '저장했습니다.', voiceTrimmed: '잘랐습니다.',
    markDone: '완료', text: '메모를 쓰세요…', memoTitle: '제목 (선택)', pin: '고정', unpin: '고정 해제',
    pinned: '고정됨', conflictCopy: '충돌 사본', search: '모두 검색', noMemos: '메모가 없습니다.', noHits: '찾은 것이 없습니다.',
    clear: '지우기', loadMore: '더 보기',
    duration: '카운트다운 (25m, 1h30m); 비우면 스톱워치', label: '이름', startTimer: '시작',
    pause: '일시정지', resume: '계속', lap: '랩', stop: '정지', cancelTimer: '취소', dismiss: '치우기', timerStopped: '멈춤',
    noTimers: '실행 중인 타이머가 없습니다.', timerDone: '시간이 다 됐습니다', countdown: '카운트다운', stopwatch: '스톱워치',
    paused: '일시정지됨', finished: '끝남', cancelled: '취소됨', stopped: '멈춤', running: '실행 중',
    offline: 'memoapp에 연결할 수 없습니다. `memoapp serve`가 실행 중인가요?', reconnecting: '연결이 끊겼습니다. 다시 연결하는 중…',
    signInTitle: '로그인', signInHelp: '`memoapp serve`가 출력한 링크를 여세요. 새 링크는 `memoapp token link`로 만듭니다.',
    codeRefused: '이미 사용했거나 만료된 로그인 링크입니다.',
    audioFile: '오디오 파일', upload: '올리기', record: '녹음', stopRecording: '녹음 멈추기', uploading: '올리는 중', voiceWaiting: '올리기 대기 중', voiceDiscarded: '올리기 전에 녹음을 삭제했습니다.', voiceAlreadyThere: '이미 서버에 있어 하나만 두었습니다.',
    noVoice: '음성 메모가 없습니다.', waveform: '파형: 눌러서 이동, 끌어서 구간 선택', trim: '선택 구간만 남기기',
    changedWhileEditing: '편집하는 동안 다른 곳에서 바뀌었습니다. 저장하면 덮어쓰기 전에 한 번 더 묻습니다.',
    changedElsewhere: '연 뒤에 다른 곳에서 바뀌었습니다. 다시 저장하면 그 변경을 덮어쓰고, 취소하면 바뀐 내용을 봅니다.',
    rename: '이름 바꾸기', voiceRemoved: '음성 메모를 삭제했습니다.', noMicrophone: '마이크를 열 수 없습니다.',
    mainTitle: 'memoapp', overdueCount: n => `지난 할 일 ${n}개`,
    offlineCopy: '오프라인', changesWaiting: n => `변경 ${n}개 대기 중`,
    syncedNow: '방금 동기화됨', notKept: '이 기기에 없는 항목입니다.',
    offlineEmpty: '먼저 내용을 입력하세요.', offlineDue: '오프라인에서는 날짜를 2026-12-24 또는 2026-12-24 18:30처럼 쓰세요.',
    offlineNeedsServer: '알림과 반복은 서버가 있어야 합니다. 서버가 돌아오면 추가하세요.',
    shortcuts: '키보드 단축키', keySearch: '모두 검색', keyNew: '이 탭에 새 항목',
    keyNext: '다음 줄', keyPrevious: '이전 줄', keyDone: '할 일 완료 또는 다시 열기',
    keyEdit: '이 줄 편집', keyHelp: '이 목록',
    trimStart: '남길 구간 시작', trimEnd: '남길 구간 끝',
    close: '닫기', memo: '메모', filters: '필터', newTodo: '새 할 일', searchResults: '검색 결과', clearTag: '모든 태그 보기', itemGone: '삭제되었습니다.',
    markdownMissing: '서버에 markdown-it이 없어 마크다운을 보여 줄 수 없습니다. 쓴 그대로 보여 줍니다.',
    changedElsewhereShown: '다른 곳에서 바뀐 메모입니다. 지금 내용을 보여 줍니다. 그래도 바꾸려면 다시 체크하세요.',
  },
};

const listeners = new Set();
let current = pick();

function pick() {
  let stored = null;
  try { stored = localStorage.getItem('memoapp.lang'); } catch { /* storage may be off */ }
  if (stored === 'ko' || stored === 'en') return stored;
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
  for (const tag of wanted) {
    const l = String(tag).toLowerCase();
    if (l.startsWith('ko')) return 'ko';
    if (l.startsWith('en')) return 'en';
  }
  return 'en';
}

export function lang() { return current; }

export function t(key, ...args) {
  const value = texts[current][key] ?? texts.en[key] ?? key;
  return typeof value === 'function' ? value(...args) : value;
}

export function setLang(next) {
  if (next === current) return;
  current = next;
  try { localStorage.setItem('memoapp.lang', next); } catch { /* not kept then */ }
  document.documentElement.lang = next;
  for (const f of listeners) f(next);
}

export function onLangChange(f) { listeners.add(f); return () => listeners.delete(f); }

document.documentElement.lang = current;
