/* analyzer/frontend/extract.c — the libclang front end, translation-unit level:
 * parse, collect diagnostics and dependencies, note the macro expansions
 * and definitions (extract_sites.c, extract_macro.c), and hand each
 * function definition of the project's own files to extract_stmt.c; and
 * the small helpers over cursors that every file uses. */
#define _GNU_SOURCE   /* strcasestr */
#include "extract.h"
#include "analyzer/model/paths.h"
#include "extract_int.h"
#include "extract_asm.h"
#include "extract_model.h"
#include "extract_guards.h"
#include "extract_expr.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* File location: for a token that came from a macro argument this is where
 * the argument was written; for one from a macro body it is where the macro
 * was expanded.  The whole front end relies on that distinction. */
void loc_of(CXSourceLocation l, CXFile *f, unsigned *line, unsigned *col, unsigned *off)
{
	clang_getFileLocation(l, f, line, col, off);
}

struct kids { CXCursor *v; int n, cap; };

static enum CXChildVisitResult collect_kid(CXCursor c, CXCursor parent, CXClientData d)
{
	struct kids *k = d;

	(void)parent;
	grow(&k->v, &k->cap, k->n + 1, sizeof *k->v);
	k->v[k->n++] = c;
	return CXChildVisit_Continue;
}

int children(CXCursor c, CXCursor **out)
{
	struct kids k = { 0 };

	clang_visitChildren(c, collect_kid, &k);
	*out = k.v;
	return k.n;
}

/* Does absolute PATH have a "." or ".." part or a doubled slash? */
static int needs_normalizing(const char *path)
{
	for (const char *p = strchr(path, '/'); p; p = strchr(p + 1, '/'))
		if (p[1] == '/' || (p[1] == '.' && (p[2] == '/' || !p[2] ||
						    (p[2] == '.' && (p[3] == '/' || !p[3])))))
			return 1;
	return 0;
}

/* Is the file at A the file at B (both exist, one inode)? */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

char *file_name_of(CXFile f)
{
	/* The last name normalized, and what it became: the events of one
	 * header come in long runs, and stat() is asked once per run.
	 * (Per thread: a worker parses one TU at a time.) */
	static _Thread_local char *last_raw, *last_out;
	CXString s = clang_getFileName(f);
	const char *raw = clang_getCString(s);
	char *r;

	if (!raw) {
		clang_disposeString(s);
		return NULL;
	}
	/* "dir/sub/../../api.h", as clang joins an include's spelling to the
	 * includer's directory: lexically normalized, as the compile database's
	 * paths are, so that one header is one file whichever directory
	 * includes it (its static functions one function, its accesses one
	 * site).  Unless a symbolic link makes the lexical name another file:
	 * then the name stays as clang gave it. */
	if (raw[0] != '/' || !needs_normalizing(raw)) {
		r = xstrdup(raw);
	} else if (last_raw && strcmp(last_raw, raw) == 0) {
		r = xstrdup(last_out);
	} else {
		char *norm = path_normalized(raw);

		if (!same_file(raw, norm)) {
			free(norm);
			norm = xstrdup(raw);
		}
		free(last_raw);
		free(last_out);
		last_raw = xstrdup(raw);
		last_out = norm;
		r = xstrdup(norm);
	}
	clang_disposeString(s);
	return r;
}

char *cursor_file_name(CXCursor c)
{
	CXFile f;
	unsigned line, col, off;

	loc_of(clang_getCursorLocation(c), &f, &line, &col, &off);
	return f ? file_name_of(f) : NULL;
}

int is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

char *function_link_key(CXCursor fn)
{
	CXString name = clang_getCursorSpelling(fn);
	char *key;

	if (clang_getCursorLinkage(fn) == CXLinkage_Internal) {
		/* A static function is defined in the file of its definition
		 * (a declaration may stand in a header). */
		CXCursor def = clang_getCursorDefinition(fn);
		char *file = cursor_file_name(clang_Cursor_isNull(def) ? fn : def);

		key = xasprintf("%s:%s", file ? file : "?", clang_getCString(name));
		free(file);
	} else {
		key = xstrdup(clang_getCString(name));
	}
	clang_disposeString(name);
	return key;
}

const struct vocab_entry *contract_of(struct ectx *x, CXCursor fn, enum op op)
{
	char *name = spelling_of(fn), *file = cursor_file_name(fn);
	const struct vocab_entry *v = name ? vocab_find_contract(x->vocab, name, file, op) : NULL;

	free(name);
	free(file);
	return v;
}

/* If FN's profile states contract OP, an EV_LOCAL marker NAME in the
 * current block whose uses name the parameters of the contract's obj=. */
static void param_marker(struct ectx *x, CXCursor fn, const struct function *f, enum op op, const char *name)
{
	const struct vocab_entry *v = contract_of(x, fn, op);
	struct event *e;
	char *uses;

	if (!v)
		return;
	e = emit(x, EV_LOCAL, fn);
	e->name = xstrdup(name);
	uses = xstrdup(",");
	for (int n = 0; n < 32; n++)
		if (v->obj_mask >> n & 1u) {
			char *item = dep_source_text(DEP_PARAM, n, f->link_key), *more = xasprintf("%s%s,", uses, item);

			free(item);
			free(uses);
			uses = more;
		}
	e->uses = uses;
}

/* A writer operation of a single-writer structure (OP_WRITER in the
 * profile: ck_rhs_put, whose callers run one writer of a set at a time):
 * the analysis sees the serialisation as a lock, "writer:GROUP", held for
 * the whole call, so two writers are never paired with each other while
 * the readers, which take no such lock, still are.  Returns the lock's key
 * (the caller frees it), or NULL for any other function. */
static char *writer_lock(struct ectx *x, CXCursor fn)
{
	const struct vocab_entry *v = contract_of(x, fn, OP_WRITER);

	return v ? xasprintf(WRITER_LOCK_PREFIX "%s", v->group) : NULL;
}

/* Takes (EV_LOCK) or releases (EV_UNLOCK) writer lock KEY, in the current
 * block. */
static void emit_writer_lock(struct ectx *x, CXCursor fn, enum ev_kind kind, const char *key)
{
	struct event *e = emit(x, kind, fn);

	e->ord = kind == EV_LOCK ? ORD_ACQUIRE : ORD_RELEASE;
	e->name = xstrdup("writer");
	e->object = xstrdup(key);
	e->display = xstrdup(key);
}

/* Does one of FN's attributes that libclang shows only as unexposed
 * (__attribute__((constructor)), C11 _Noreturn, [[noreturn]], also
 * through a macro such as URCU_ATTR_CONSTRUCTOR) have a token containing
 * WORD (case-insensitively)? */
int has_attribute_token(struct ectx *x, CXCursor fn, const char *word)
{
	CXCursor *kids;
	int n, found = 0;

	if (!clang_Cursor_hasAttrs(fn))
		return 0;
	n = children(fn, &kids);
	for (int i = 0; i < n && !found; i++) {
		CXToken *toks;
		unsigned ntoks;

		if (clang_getCursorKind(kids[i]) != CXCursor_UnexposedAttr)
			continue;
		clang_tokenize(x->tu, clang_getCursorExtent(kids[i]), &toks, &ntoks);
		for (unsigned t = 0; t < ntoks && !found; t++) {
			CXString sp = clang_getTokenSpelling(x->tu, toks[t]);

			found = strcasestr(clang_getCString(sp), word) != NULL;
			clang_disposeString(sp);
		}
		clang_disposeTokens(x->tu, toks, ntoks);
	}
	free(kids);
	return found;
}

static int is_constructor(struct ectx *x, CXCursor fn)
{
	return has_attribute_token(x, fn, "constructor");
}


/* Walks definition FN, whose link key and file name are LINK_KEY and
 * FILE (taken over). */
static void extract_function(struct ectx *x, CXCursor fn, char *link_key, char *file_name)
{
	CXCursor *kids, body = clang_getNullCursor();
	int n = children(fn, &kids);
	struct function *f;
	CXSourceRange r = clang_getCursorExtent(fn);
	CXFile file;
	unsigned line, col, off;
	CXString name;
	char *lock;

	for (int i = 0; i < n; i++)
		if (clang_getCursorKind(kids[i]) == CXCursor_CompoundStmt)
			body = kids[i];
	free(kids);
	if (clang_Cursor_isNull(body)) {
		free(link_key);
		free(file_name);
		return;
	}
	f = facts_add_function(x->facts);
	name = clang_getCursorSpelling(fn);
	f->name = xstrdup(clang_getCString(name));
	clang_disposeString(name);
	f->link_key = link_key;
	f->file = file_name;
	loc_of(clang_getCursorLocation(fn), &file, &line, &col, &off);
	f->line = line;
	f->col = col;
	loc_of(clang_getRangeEnd(r), &file, &line, &col, &off);
	f->end_line = line;

	x->fn = f;
	x->fn_cursor = fn;
	x->nevents = 0;
	cfg_start_function(x);
	forget_aliases(x);
	forget_fresh(x);
	forget_owned(x);
	branch_guards_forget(x);
	forget_active_sites(x);
	forget_spans(&x->spans);
	forget_asm(x);
	x->no_escape = 0;
	x->conditional = 0;
	x->self_store = clang_getNullCursor();
	x->collect = NULL;

	f->entry = function_add_block(f);
	f->exit = function_add_block(f);
	x->cur = f->entry;
	if (is_constructor(x, fn)) {
		/* Runs before main(), before any thread: a marker the analysis
		 * reads (dataflow.c, is_constructor). */
		struct event *e = emit(x, EV_LOCAL, fn);

		e->name = xstrdup("constructor");
	} else if (contract_of(x, fn, OP_FORK_CHILD)) {
		/* Runs in a fork child, with no other thread: the same kind of
		 * marker (solver.c, starts_single_threaded). */
		struct event *e = emit(x, EV_LOCAL, fn);

		e->name = xstrdup("fork_child");
	}
	/* Its parameters obj=N,... are the caller's own instances (owner), or
	 * the caller has them to itself for the call (exclusive): a marker
	 * naming each parameter ("$KEY:N"), read by analysis/owned.c and
	 * analysis/privparams.c. */
	param_marker(x, fn, f, OP_OWNER, "owner");
	param_marker(x, fn, f, OP_EXCLUSIVE, "exclusive");
	lock = writer_lock(x, fn);
	if (lock)
		emit_writer_lock(x, fn, EV_LOCK, lock);
	analyse_locals(x, body);
	find_function_locals(x, body);
	fresh_parameters(x);
	walk_stmt(x, body);
	jump(x, f->exit);
	note_kept_parameters(x);
	branch_guards_apply(x);
	if (lock) {
		x->cur = f->exit;
		emit_writer_lock(x, fn, EV_UNLOCK, lock);
		free(lock);
	}
}

static int in_list(char *const *v, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return 1;
	return 0;
}

/* Is the definition LINK_KEY of FILE (a header, not the TU's own file)
 * one that another TU stored already (extract.h, struct header_copies)? */
static int stored_elsewhere(struct ectx *x, const char *link_key, const char *file)
{
	return x->copies && file && link_key && strcmp(file, x->facts->path) != 0 &&
	       !in_list(x->harness.v, x->harness.n, file) &&
	       x->copies->stored_before(x->copies->arg, link_key, file, x->facts->path);
}

/* Second pass over the TU: every function definition of the project's own
 * files (system headers, including kcsan/lkmm.h, are not analysed). */
static enum CXChildVisitResult visit_functions(CXCursor c, CXCursor parent, CXClientData d)
{
	struct ectx *x = d;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (x->too_deep)
		return CXChildVisit_Break;     /* the TU fails: stop here */
	if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(c) &&
	    !clang_Location_isInSystemHeader(clang_getCursorLocation(c))) {
		char *link_key = function_link_key(c), *file = cursor_file_name(c);

		if (stored_elsewhere(x, link_key, file)) {
			struct tu_facts *t = x->facts;

			grow(&t->skipped, &t->skipcap, t->nskipped + 1, sizeof *t->skipped);
			t->skipped[t->nskipped].link_key = link_key;
			t->skipped[t->nskipped++].file = file;
		} else {
			extract_function(x, c, link_key, file);
		}
	}
	return CXChildVisit_Continue;
}

/* A header in which this TU defines main() is a harness (torture.h): each
 * TU that includes it is a program of its own, with its own copy of the
 * header's functions, which are never left to another TU's copy. */
static void note_harness(struct ectx *x, CXCursor fn)
{
	CXString name = clang_getCursorSpelling(fn);
	char *file;

	if (strcmp(clang_getCString(name), "main") == 0 && (file = cursor_file_name(fn)) != NULL) {
		if (strcmp(file, x->facts->path) != 0 && !in_list(x->harness.v, x->harness.n, file)) {
			grow(&x->harness.v, &x->harness.cap, x->harness.n + 1, sizeof *x->harness.v);
			x->harness.v[x->harness.n++] = file;
		} else {
			free(file);
		}
	}
	clang_disposeString(name);
}

/* First pass: the macro expansions, so that sites are known (and sorted)
 * before any function body is walked, the headers that define main(), and
 * whether the TU declares C11 atomics (extract_model.c). */
static enum CXChildVisitResult visit_macros(CXCursor c, CXCursor parent, CXClientData d)
{
	struct ectx *x = d;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_MacroExpansion) {
		CXSourceRange r = clang_getCursorExtent(c);
		CXFile f;
		unsigned l, col, o1, o2;

		note_macro_site(x, c);
		loc_of(clang_getRangeStart(r), &f, &l, &col, &o1);
		loc_of(clang_getRangeEnd(r), &f, &l, &col, &o2);
		if (f && !clang_Location_isInSystemHeader(clang_getRangeStart(r))) {
			note_expansion_range(x, f, o1, o2);
			note_macro_host(x, c);
		}
	} else if (clang_getCursorKind(c) == CXCursor_MacroDefinition) {
		note_macro_definition(x, c);
	} else if (clang_getCursorKind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
		note_harness(x, c);
	} else if (!x->c11_atomics && declares_c11_atomic(c)) {
		x->c11_atomics = 1;
	}
	return CXChildVisit_Continue;
}


static void add_dep(CXFile included, CXSourceLocation *stack, unsigned len, CXClientData d)
{
	struct tu_facts *t = d;
	char *name = file_name_of(included);

	(void)stack;
	(void)len;
	if (name) {
		grow(&t->deps, &t->depcap, t->ndeps + 1, sizeof *t->deps);
		t->deps[t->ndeps++] = name;
	}
}

static void append(char **buf, const char *s)
{
	char *old = *buf;

	*buf = xasprintf("%s%s", old ? old : "", s);
	free(old);
}

/* 0 if PATH can be read, else the errno that says why not.  libclang only
 * says that it "could not parse" a file it cannot open, which hides the
 * cause (a file deleted since compile_commands.json was written, a
 * permission, a directory named like a source). */
static int unreadable(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), err = 0;
	char c;

	if (fd < 0)
		return errno;
	if (read(fd, &c, 1) < 0 && errno != EAGAIN)
		err = errno;
	close(fd);
	return err;
}

int extract_tu(const char *path, const char *directory, char **args, int nargs,
	       const struct vocab *vocab, const struct header_copies *copies, struct tu_facts *facts)
{
	CXIndex index = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	enum CXErrorCode rc;
	struct ectx x = { 0 };
	unsigned ndiag;
	int errors = 0;

	(void)directory;
	facts->path = xstrdup(path);
	if ((errors = unreadable(path)) != 0) {
		facts->diagnostics = xasprintf("cannot read '%s': %s\n", path, strerror(errors));
		facts->own_reason = 1;
		clang_disposeIndex(index);
		return -1;
	}
	rc = clang_parseTranslationUnit2(index, path, (const char *const *)args, nargs, NULL, 0,
					 CXTranslationUnit_DetailedPreprocessingRecord |
					 CXTranslationUnit_KeepGoing,
					 &tu);
	if (rc != CXError_Success || !tu) {
		facts->diagnostics = rc == CXError_Crashed
			? xasprintf("%s: libclang crashed while parsing the file\n", path)
			: xasprintf("%s: libclang could not parse the file (error %d)\n", path, rc);
		facts->own_reason = 1;
		clang_disposeIndex(index);
		return -1;
	}
	ndiag = clang_getNumDiagnostics(tu);
	for (unsigned i = 0; i < ndiag; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);

		if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
			CXString s = clang_formatDiagnostic(d, clang_defaultDiagnosticDisplayOptions());
			append(&facts->diagnostics, clang_getCString(s));
			append(&facts->diagnostics, "\n");
			clang_disposeString(s);
			errors++;
		}
		clang_disposeDiagnostic(d);
	}
	clang_getInclusions(tu, add_dep, facts);
	if (!errors) {
		x.tu = tu;
		x.vocab = vocab;
		x.facts = facts;
		x.copies = copies;
		clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_macros, &x);
		sort_sites(&x);
		sort_expansions(&x);
		finish_macro_tables(&x);
		clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_functions, &x);
	}
	if (x.too_deep) {
		/* Half a TU would be wrong facts: none, and the TU fails. */
		facts_forget_functions(facts);
		facts->diagnostics = xasprintf("%s: expressions or statements nested deeper than %d levels\n",
					       path, MAX_NESTING);
		facts->own_reason = 1;
	}
	free_cfg_state(&x.cfg);
	forget_locals(&x);
	forget_function_locals(&x);
	free(x.fnlocals.v);
	free_fresh(&x.fresh);
	free_fresh(&x.handed);
	free_owned(&x.owned);
	branch_guards_free(&x);
	forget_aliases(&x);
	free_aliases(&x.aliases);
	free_sites(&x.sites);
	free_macro_tables(&x.macros);
	free_source_text(&x.text);
	free_spans(&x.spans);
	forget_asm(&x);
	hashmap_free(&x.wrappers);
	for (int i = 0; i < x.harness.n; i++)
		free(x.harness.v[i]);
	free(x.harness.v);
	clang_disposeTranslationUnit(tu);
	clang_disposeIndex(index);
	return 0;
}
