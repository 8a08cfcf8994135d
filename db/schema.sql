-- db/schema.sql — the one database schema of kcsan-scan.
--
-- Every part of the product (the static analyser, the runtime, the report)
-- reads and writes this file's tables and nothing else.  The schema is
-- versioned with PRAGMA user_version; db/db.c refuses a database whose
-- version differs instead of silently rewriting it.  Connections run with
-- journal_mode=WAL (many instrumented processes may write at once) and
-- foreign_keys=ON.
--
-- Layout:
--   * scan facts, per translation unit (replaced whole when a TU is
--     re-parsed): files, translation_units, tu_dependencies, functions,
--     cfg_edges, events.  Accesses and barrier sites are views over events.
--   * scan results, recomputed from all facts at the end of every scan:
--     function_summaries, candidates, pairs, findings, finding_locations,
--     finding_parts, finding_evidence.
--   * dynamic results, filled by the runtime (db/races.c): runs, races,
--     race_frames, run_races, race_evidence.
--   * inline suppressions, read by the scan from the source: suppressions.
--
-- A file is taken for a kcsan-scan database only when it has every table
-- and column below (db/db.c); user_version alone proves nothing.

PRAGMA user_version = 6;

CREATE TABLE IF NOT EXISTS scans (
    id            INTEGER PRIMARY KEY,
    tool_version  TEXT NOT NULL,
    started_at    TEXT NOT NULL,          -- ISO-8601 UTC
    finished_at   TEXT,
    root          TEXT NOT NULL,          -- directory paths are reported relative to
    arguments     TEXT NOT NULL,          -- the command line, JSON array
    parsed_tus    INTEGER NOT NULL DEFAULT 0,
    reused_tus    INTEGER NOT NULL DEFAULT 0,
    failed_tus    INTEGER NOT NULL DEFAULT 0,
    status        TEXT NOT NULL DEFAULT 'running'   -- running | ok | error
);

-- Every source or header file the scan has seen, by absolute path.
CREATE TABLE IF NOT EXISTS files (
    id            INTEGER PRIMARY KEY,
    path          TEXT NOT NULL UNIQUE,
    content_hash  TEXT                    -- hex FNV-1a 64 of the content at last parse
);

-- One row per main source file with the flags it was parsed with.  A TU is
-- re-parsed only when flags_hash or the hash of one of its dependencies
-- changed (incremental scanning).
CREATE TABLE IF NOT EXISTS translation_units (
    id            INTEGER PRIMARY KEY,
    file_id       INTEGER NOT NULL UNIQUE REFERENCES files(id),
    directory     TEXT NOT NULL,          -- working directory of the compile command
    arguments     TEXT NOT NULL,          -- JSON array of compiler arguments used
    flags_hash    TEXT NOT NULL,
    scan_id       INTEGER NOT NULL REFERENCES scans(id),
    status        TEXT NOT NULL,          -- ok | error
    diagnostics   TEXT                    -- compiler errors when status = error
);

-- The files a TU read (itself and every header) with their hash at parse time.
CREATE TABLE IF NOT EXISTS tu_dependencies (
    tu_id         INTEGER NOT NULL REFERENCES translation_units(id) ON DELETE CASCADE,
    file_id       INTEGER NOT NULL REFERENCES files(id),
    content_hash  TEXT NOT NULL,
    PRIMARY KEY (tu_id, file_id)
);

-- Shared objects, identified across translation units by a key whose
-- grammar is analyzer/model/items.h's (the one place that reads it):
--   'c:USR'            clang's USR of a global ('c:@flag'), a file static
--                      ('c:/src/a.c@count'), a field ('c:@S@ring@FI@head');
--                      '[]' after it: the elements of an array ('c:@buf[]');
--                      '#PATH' before that: a global of the program whose
--                      main() is in PATH, when a tree holds several
--   'p:KEY:N'          what parameter N of function KEY points to
--   'l:FUNCTION:NAME'  a local of FUNCTION whose address never escapes
--   'f:KEY'            function KEY, its address taken
--   't:TYPE'           every object of a type (a lock reached through a
--                      pointer of that type)
-- KEY is a function's link key (functions.link_key).  A lock held for
-- reading is its object's key with 'shared:' before it.
CREATE TABLE IF NOT EXISTS objects (
    id            INTEGER PRIMARY KEY,
    key           TEXT NOT NULL UNIQUE,
    display       TEXT NOT NULL           -- what a person calls it: 'x', 'ring->head'
);

CREATE TABLE IF NOT EXISTS functions (
    id            INTEGER PRIMARY KEY,
    tu_id         INTEGER NOT NULL REFERENCES translation_units(id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    link_key      TEXT NOT NULL,          -- name for external linkage, path:name for static
    file_id       INTEGER NOT NULL REFERENCES files(id),
    line          INTEGER NOT NULL,
    col           INTEGER NOT NULL,
    end_line      INTEGER NOT NULL,
    entry_block   INTEGER NOT NULL,
    exit_block    INTEGER NOT NULL,
    block_count   INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS functions_by_link ON functions(link_key);

-- The functions a TU defines in a header but did not store, because a TU
-- whose path sorts before its own had stored that function (LINK_KEY, in
-- FILE_ID) already: a static inline function of a header is one function
-- for the analysis, which reads the copy of the first TU by path (db/facts.c,
-- store_load_functions), so the other TUs neither walk nor store it.  A
-- scan parses a TU again, storing everything, when the copy it relied on
-- is gone (its TU vanished or no longer defines the function) or when the
-- header turns out to define main() in some TU (a harness header: each
-- TU keeps its own copy).
CREATE TABLE IF NOT EXISTS skipped_functions (
    tu_id         INTEGER NOT NULL REFERENCES translation_units(id) ON DELETE CASCADE,
    link_key      TEXT NOT NULL,
    file_id       INTEGER NOT NULL REFERENCES files(id)
);
CREATE INDEX IF NOT EXISTS skipped_functions_by_tu ON skipped_functions(tu_id);

CREATE TABLE IF NOT EXISTS cfg_edges (
    function_id   INTEGER NOT NULL REFERENCES functions(id) ON DELETE CASCADE,
    src           INTEGER NOT NULL,
    dst           INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS cfg_edges_by_function ON cfg_edges(function_id);

-- Everything the analysis looks at, in program order inside a basic block.
--   kind    access | barrier | call | lock | unlock | local
--   access  read | write | rmw          (kind = access)
--   marked  1 for READ_ONCE, atomics, volatile ...; 0 for plain accesses
--   discarded 1 when the value is not used (set_bit(...); as a statement)
--   ord     relaxed | acquire | release | acq_rel | full | wmb | rmb | none
--   name    the macro or function through which the event was written
--   target  callee link key (kind = call)
--   defines local variable that receives the value read (kind = access/local),
--           or where the value goes: '?test' a condition, '?ret' the
--           function's result, '?loop' a loop's condition
--   uses    what the address (kind = local: the value) depends on, items
--           separated by ',' (grammar: analyzer/model/items.h): a local
--           'x', an event of the function '@3', parameter N of function
--           KEY '$KEY:N', fresh memory '!new', '!new:KEY', '!newarg:N',
--           '!null'; '~ITEM' what a write stores depends on ITEM,
--           '#N=ITEM' what argument N of a call does
--   args    separated by U+001F: for a call, the object key each argument
--           points to ('' for none); for a macro or primitive, the
--           argument texts (used to write suggested fixes)
--   display how this access spells its object ('ring->head'); NULL when
--           the source gives none (objects.display names it then)
CREATE TABLE IF NOT EXISTS events (
    id            INTEGER PRIMARY KEY,
    function_id   INTEGER NOT NULL REFERENCES functions(id) ON DELETE CASCADE,
    block         INTEGER NOT NULL,
    seq           INTEGER NOT NULL,
    kind          TEXT NOT NULL,
    access        TEXT,
    marked        INTEGER NOT NULL DEFAULT 0,
    discarded     INTEGER NOT NULL DEFAULT 0,
    ord           TEXT NOT NULL DEFAULT 'none',
    object_id     INTEGER REFERENCES objects(id),
    name          TEXT,
    target        TEXT,
    defines       TEXT,
    uses          TEXT,
    args          TEXT,
    file_id       INTEGER NOT NULL REFERENCES files(id),
    line          INTEGER NOT NULL,
    col           INTEGER NOT NULL,
    display       TEXT
);
CREATE INDEX IF NOT EXISTS events_by_function ON events(function_id, block, seq);
CREATE INDEX IF NOT EXISTS events_by_object ON events(object_id);
-- The runtime's focus reads the barrier sites at the start of every
-- instrumented process (runtime/focus_db.c): without this index, a scan of
-- the whole table (Concurrency Kit: 161,000 events); with one on (kind,
-- ord) alone, a lookup of each barrier's row.  Covering the columns that
-- query reads, its 41 ms became 11 (the database 5 % larger).  An index
-- only: a database made before it works as it did, and as slowly.
CREATE INDEX IF NOT EXISTS events_by_kind ON events(kind, ord, name, file_id, line, function_id);

CREATE VIEW IF NOT EXISTS accesses AS
    SELECT e.id, e.function_id, f.name AS function, e.object_id, o.display AS object,
           e.access, e.marked, e.ord, e.name AS via, e.file_id, e.line, e.col
    FROM events e JOIN functions f ON f.id = e.function_id
                  LEFT JOIN objects o ON o.id = e.object_id
    WHERE e.kind = 'access';

CREATE VIEW IF NOT EXISTS barrier_sites AS
    SELECT e.id, e.function_id, f.name AS function, e.ord AS barrier_kind,
           e.name AS via, e.access, e.object_id, e.file_id, e.line, e.col
    FROM events e JOIN functions f ON f.id = e.function_id
    WHERE e.kind = 'barrier'
       OR (e.kind IN ('access', 'unlock') AND e.ord IN ('release', 'acq_rel', 'full'));

-- Per function, what a caller sees when it calls it (computed over the tree).
CREATE TABLE IF NOT EXISTS function_summaries (
    link_key      TEXT PRIMARY KEY,
    always_orders TEXT NOT NULL           -- strongest ordering on every path: none|wmb|rmb|release|full
);

-- Writer side: plain access -> marked write of flag with no ordering between.
-- Reader side: marked read of flag -> plain read with no ordering between.
CREATE TABLE IF NOT EXISTS candidates (
    id             INTEGER PRIMARY KEY,
    side           TEXT NOT NULL,         -- writer | reader
    function_id    INTEGER NOT NULL REFERENCES functions(id) ON DELETE CASCADE,
    plain_event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    marked_event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    data_object_id INTEGER NOT NULL REFERENCES objects(id),
    flag_object_id INTEGER NOT NULL REFERENCES objects(id),
    barrier_event_id INTEGER REFERENCES events(id) ON DELETE CASCADE  -- a barrier that orders too little
);

-- A writer-side and a reader-side pattern on the same (data, flag).  Either
-- candidate may be NULL when that side is correctly ordered.
CREATE TABLE IF NOT EXISTS pairs (
    id                  INTEGER PRIMARY KEY,
    data_object_id      INTEGER NOT NULL REFERENCES objects(id),
    flag_object_id      INTEGER NOT NULL REFERENCES objects(id),
    writer_candidate_id INTEGER REFERENCES candidates(id) ON DELETE CASCADE,
    reader_candidate_id INTEGER REFERENCES candidates(id) ON DELETE CASCADE
);

CREATE TABLE IF NOT EXISTS runs (
    id            INTEGER PRIMARY KEY,
    command       TEXT NOT NULL,          -- JSON array
    cwd           TEXT NOT NULL,
    pid           INTEGER,
    started_at    TEXT NOT NULL,
    finished_at   TEXT,
    exit_status   INTEGER,
    options       TEXT NOT NULL DEFAULT '',
    focus         INTEGER NOT NULL DEFAULT 1
);

-- One row per distinct race the runtime observed (deduplicated by fingerprint).
CREATE TABLE IF NOT EXISTS races (
    id              INTEGER PRIMARY KEY,
    fingerprint     TEXT NOT NULL UNIQUE,
    run_id          INTEGER REFERENCES runs(id),
    kind            TEXT NOT NULL,        -- data-race | missing-release | missing-acquire
    object          TEXT,
    reordered       INTEGER NOT NULL DEFAULT 0,
    reordered_to_file TEXT,
    reordered_to_line INTEGER,
    a_function TEXT, a_file TEXT, a_line INTEGER, a_access TEXT, a_marked INTEGER, a_tid INTEGER,
    b_function TEXT, b_file TEXT, b_line INTEGER, b_access TEXT, b_marked INTEGER, b_tid INTEGER,
    observations    INTEGER NOT NULL DEFAULT 1,
    first_seen      TEXT NOT NULL,
    last_seen       TEXT NOT NULL
);

-- The call stack of each side of a race as the runtime first saw it: the
-- access itself at depth 0, then its callers, innermost first, up to the
-- first frame outside the program's own code.  Written with the races row
-- it belongs to; later observations of that race keep the first stack.
CREATE TABLE IF NOT EXISTS race_frames (
    race_id        INTEGER NOT NULL REFERENCES races(id) ON DELETE CASCADE,
    side           TEXT NOT NULL CHECK (side IN ('a', 'b')),  -- the races row's a_* or b_* side
    depth          INTEGER NOT NULL,      -- 0: the access, 1: its caller, ...
    function       TEXT NOT NULL,         -- '?' when no symbol names the code
    file           TEXT,                  -- normalised; NULL when the code has no line information
                                          -- (then line is NULL too; a line is never 0)
    line           INTEGER,
    module_offset  TEXT NOT NULL,         -- 'module+0xoffset' of the code address
    PRIMARY KEY (race_id, side, depth)
);

-- Which runs saw which races: one row per (run, race), whether the run
-- found the race or saw again one that an earlier run found (races.run_id
-- is the run that found it, and stays).  `kcsan-scan run` counts a run's
-- races from here; a program not started by it (no runs row) adds none.
CREATE TABLE IF NOT EXISTS run_races (
    run_id         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    race_id        INTEGER NOT NULL REFERENCES races(id) ON DELETE CASCADE,
    PRIMARY KEY (run_id, race_id)
);

-- What `report` shows: static findings written by the scan (origin
-- 'static'), joined with races through race_evidence.  One finding per
-- site (the plain access, or the barrier of an unpaired-barrier): the
-- finding's own kind, flag and message are its surest pairing, and
-- finding_parts lists the others.
CREATE TABLE IF NOT EXISTS findings (
    id             INTEGER PRIMARY KEY,
    fingerprint    TEXT NOT NULL UNIQUE,
    kind           TEXT NOT NULL,         -- missing-release | missing-acquire | unpaired-barrier | data-race
    severity       TEXT NOT NULL,         -- error | warning | note
    message        TEXT NOT NULL,
    variable       TEXT,
    flag           TEXT,
    fix_file       TEXT,
    fix_line       INTEGER,
    fix_suggestion TEXT,
    pair_id        INTEGER REFERENCES pairs(id) ON DELETE SET NULL,
    scan_id        INTEGER REFERENCES scans(id),
    confidence     TEXT NOT NULL DEFAULT 'low',  -- high | medium | low
    strength       INTEGER NOT NULL DEFAULT 0    -- order inside a confidence level (more first)
);

-- The facts behind a finding's confidence, as the report shows them.
CREATE TABLE IF NOT EXISTS finding_evidence (
    finding_id     INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,
    seq            INTEGER NOT NULL,
    fact           TEXT NOT NULL,
    PRIMARY KEY (finding_id, seq)
);

-- A site's other pairings (part 1, 2, ...; the finding row is part 0):
-- another flag or counterpart the same plain access pairs with.  Its
-- locations are the finding's locations first_seq .. first_seq + nlocs - 1
-- (the site itself is not repeated); those before the first part's are
-- part 0's.
CREATE TABLE IF NOT EXISTS finding_parts (
    finding_id     INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,
    part           INTEGER NOT NULL,
    kind           TEXT NOT NULL,
    flag           TEXT,
    message        TEXT NOT NULL,
    first_seq      INTEGER NOT NULL,
    nlocs          INTEGER NOT NULL,
    PRIMARY KEY (finding_id, part)
);

CREATE TABLE IF NOT EXISTS finding_locations (
    finding_id     INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,
    seq            INTEGER NOT NULL,
    role           TEXT NOT NULL,         -- plain-access | publish | consume | racing-access | barrier
    file           TEXT NOT NULL,         -- relative to scans.root where possible
    line           INTEGER NOT NULL,
    col            INTEGER NOT NULL,
    function       TEXT,
    access         TEXT,                  -- read | write | rmw | none
    marked         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (finding_id, seq)
);

CREATE TABLE IF NOT EXISTS race_evidence (
    finding_id     INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,
    race_id        INTEGER NOT NULL REFERENCES races(id) ON DELETE CASCADE,
    PRIMARY KEY (finding_id, race_id)
);

-- Inline suppressions: a comment 'kcsan-scan: ignore' (every kind) or
-- 'kcsan-scan: ignore(KIND, ...)' in a file that holds events.  It covers
-- findings with a location on its own line or on the line below it.  Read
-- anew at the end of every scan.  One row per kind named; kind is NULL
-- for a comment that names none.
CREATE TABLE IF NOT EXISTS suppressions (
    file_id        INTEGER NOT NULL REFERENCES files(id),
    line           INTEGER NOT NULL,      -- line of the comment's marker
    col            INTEGER NOT NULL,
    kind           TEXT                   -- NULL: every kind
);
CREATE INDEX IF NOT EXISTS suppressions_by_file ON suppressions(file_id, line);
