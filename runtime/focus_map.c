/*
 * focus_map.c — from source sites (file, line) to code addresses of the
 * running executable, through its DWARF line table (elfutils libdw, loaded
 * with dlopen by dynlib.c, as for srcline.c, so that programs run without a database
 * never load it).
 *
 * Every row of every CU's line table covers the code addresses [addr, next
 * row's addr) generated for one source line; a row whose file and line are
 * a site's contributes that range.  A hook looks up its return address
 * minus one, which lies inside the call instruction, so the call's own row
 * decides (the return address itself may already belong to the next line).
 *
 * File names: the scan stores absolute paths; the line table has whatever
 * the compiler was given (relative to its directory, or absolute), joined
 * by libdw with the compilation directory when that is known.  Absolute
 * names must be equal (after removing "." and "x/.."); a relative name
 * matches an absolute one that ends with it at a '/' boundary, so a program
 * compiled in another checkout (or with -fdebug-prefix-map) still matches.
 *
 * Only the main executable is mapped: its line table is what the program's
 * own code was compiled with; shared libraries keep ordinary sampling.
 * Nor is the runtime's own code, linked into it with its line tables: it
 * holds no candidate, and reading its 28 units' tables was 4.5 of the 5 ms
 * the mapping took at the start of each process (CK's ck_hp_fifo, whose
 * own two units take 0.4 ms).
 */
#define _GNU_SOURCE
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dynlib.h"
#include "focus.h"

/* Lexical clean-up: drops "." components, resolves "x/..", and (for a
 * relative path, which is only compared as a suffix) leading "..". */
static void normalize(const char *in, char *out, size_t n)
{
	size_t o = 0, keep[256];
	int depth = 0, abs = in[0] == '/';

	if (abs && n > 1)
		out[o++] = '/';
	while (*in) {
		const char *c = in;
		size_t len;

		while (*c == '/')
			c++;
		len = strcspn(c, "/");
		in = c + len;
		if (!len || (len == 1 && c[0] == '.'))
			continue;
		if (len == 2 && c[0] == '.' && c[1] == '.') {
			if (depth > 0)
				o = keep[--depth];
			continue;
		}
		if (depth < 256)
			keep[depth++] = o;
		if (o > (size_t)abs && o + 1 < n)
			out[o++] = '/';
		if (o + len >= n)
			len = n - o - 1;
		memcpy(out + o, c, len);
		o += len;
	}
	out[o < n ? o : n - 1] = '\0';
}

/* r is a suffix of p starting right after a '/' (or all of it). */
static int suffix_match(const char *p, const char *r)
{
	size_t lp = strlen(p), lr = strlen(r);

	if (!lr || lr > lp || strcmp(p + lp - lr, r))
		return 0;
	return lp == lr || p[lp - lr - 1] == '/';
}

/* kcsan_focus_path_match on names already normalised. */
static int normalized_match(const char *na, const char *nb)
{
	if (na[0] == '/' && nb[0] == '/')
		return !strcmp(na, nb);
	return suffix_match(na, nb) || suffix_match(nb, na);
}

int kcsan_focus_path_match(const char *a, const char *b)
{
	char na[1024], nb[1024];

	normalize(a, na, sizeof(na));
	normalize(b, nb, sizeof(nb));
	return normalized_match(na, nb);
}

/* Sites sorted by (file index, line): files are the distinct names. */
struct sorted {
	struct kcsan_focus_site *site;
	int file;
};

static int cmp_sorted(const void *a, const void *b)
{
	const struct sorted *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return (x->site->line > y->site->line) - (x->site->line < y->site->line);
}

/* A growable array of T. */
#define PUSH(arr, n, cap, val) do {						\
	if ((n) == (cap)) {							\
		void *nv_ = realloc((arr), ((cap) = (cap) ? 2 * (cap) : 64) * sizeof(*(arr))); \
		if (!nv_)							\
			goto oom;						\
		(arr) = nv_;							\
	}									\
	(arr)[(n)++] = (val);							\
} while (0)

struct mapper {
	struct sorted *s;
	size_t ns;
	const char **files;		/* distinct file names of the sites */
	char **nfiles_norm;		/* the same, normalised once */
	int nfiles;
	uintptr_t bias;			/* load address of the executable */
	struct kcsan_focus_table *t;
	size_t rcap, bcap;
};

/* First index of file fi, line ln in m->s, or -1. */
static long find_sites(const struct mapper *m, int fi, int ln)
{
	size_t lo = 0, hi = m->ns;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct sorted *x = &m->s[mid];

		if (x->file < fi || (x->file == fi && x->site->line < ln))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->ns && m->s[lo].file == fi && m->s[lo].site->line == ln)
		return (long)lo;
	return -1;
}

/* dwarf_getfuncs callback: gives the barriers of this CU their function's
 * extent (for the loop case in focus.c). */
struct funcs_arg {
	struct mapper *m;
	size_t first;		/* the CU's barriers are [first, nbarriers) */
};

static int on_func(Dwarf_Die *die, void *arg)
{
	struct funcs_arg *fa = arg;
	struct kcsan_focus_table *t = fa->m->t;
	Dwarf_Addr lo, hi;
	size_t i;

	if (kcsan_dw.lowpc(die, &lo) || kcsan_dw.highpc(die, &hi))
		return DWARF_CB_OK;
	for (i = fa->first; i < t->nbarriers; i++) {
		struct kcsan_focus_barrier *b = &t->barriers[i];

		if (b->at >= lo + fa->m->bias && b->at < hi + fa->m->bias) {
			b->func_lo = lo + fa->m->bias;
			b->func_hi = hi + fa->m->bias;
		}
	}
	return DWARF_CB_OK;
}

static int map_cu(struct mapper *m, Dwarf_Die *cu)
{
	struct kcsan_focus_table *t = m->t;
	Dwarf_Lines *lines;
	size_t nl, i, first_barrier = t->nbarriers;
	const char *last_src = NULL;
	int last_fi = -1;
	/* Which site file each of the CU's line-table names is (libdw gives
	 * one pointer per file entry; code inlined from headers switches
	 * between them at every few rows): matched once per name, not at
	 * every switch -- that took most of the mapping's time on
	 * Concurrency Kit's programs, at every process start. */
	struct { const char *src; int fi; } seen[64];
	size_t nseen = 0, si;

	if (kcsan_dw.getsrclines(cu, &lines, &nl) != 0)
		return 0;	/* a CU without line table */
	for (i = 0; i + 1 < nl; i++) {
		Dwarf_Line *l = kcsan_dw.onesrcline(lines, i), *next = kcsan_dw.onesrcline(lines, i + 1);
		Dwarf_Addr a, b;
		bool end;
		const char *src;
		int ln, fi;
		unsigned int flags = 0;
		long k;

		if (!l || !next || kcsan_dw.lineendsequence(l, &end) || end ||
		    kcsan_dw.lineaddr(l, &a) || kcsan_dw.lineaddr(next, &b) || b <= a ||
		    kcsan_dw.lineno(l, &ln) || !(src = kcsan_dw.linesrc(l, NULL, NULL)))
			continue;
		if (src != last_src) {
			last_src = src;
			for (si = 0; si < nseen && seen[si].src != src; si++)
				;
			if (si < nseen) {
				last_fi = seen[si].fi;
			} else {
				char ns[1024];

				normalize(src, ns, sizeof(ns));
				last_fi = -1;
				for (fi = 0; fi < m->nfiles; fi++)
					if (normalized_match(ns, m->nfiles_norm[fi])) {
						last_fi = fi;
						break;
					}
				if (nseen < sizeof(seen) / sizeof(seen[0]))
					seen[nseen++].src = src, seen[nseen - 1].fi = last_fi;
			}
		}
		if (last_fi < 0 || (k = find_sites(m, last_fi, ln)) < 0)
			continue;
		for (; (size_t)k < m->ns && m->s[k].file == last_fi &&
		       m->s[k].site->line == ln; k++) {
			struct kcsan_focus_site *s = m->s[k].site;

			s->matched = 1;
			if (s->flags & KCSAN_FOCUS_BARRIER) {
				struct kcsan_focus_barrier bar = {
					.at = a + m->bias, .kind = s->barrier,
				};

				PUSH(t->barriers, t->nbarriers, m->bcap, bar);
			} else {
				flags |= s->flags;
			}
		}
		if (flags) {
			struct kcsan_focus_range r = { .lo = a + m->bias, .hi = b + m->bias, .flags = flags };

			PUSH(t->ranges, t->nranges, m->rcap, r);
		}
	}
	if (t->nbarriers > first_barrier) {
		struct funcs_arg fa = { m, first_barrier };

		kcsan_dw.getfuncs(cu, on_func, &fa, 0);
	}
	return 0;
oom:
	return -1;
}

static int cmp_range(const void *a, const void *b)
{
	const struct kcsan_focus_range *x = a, *y = b;

	return (x->lo > y->lo) - (x->lo < y->lo);
}

static int cmp_barrier(const void *a, const void *b)
{
	const struct kcsan_focus_barrier *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

static int first_phdr(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	/* The first object reported is the main program. */
	*(uintptr_t *)arg = info->dlpi_addr;
	return 1;
}

/* Where a compilation unit was compiled (comp_dir) and the directory of
 * its source as the compiler was given it (name, dirlen bytes); NULLs when
 * the unit does not say. */
struct cu_place {
	const char *comp_dir, *name;
	size_t dirlen;
};

static struct cu_place cu_place(Dwarf_Die *cu)
{
	struct cu_place p = { NULL, NULL, 0 };
	Dwarf_Attribute at;
	const char *slash;

	if (kcsan_dw.attr(cu, DW_AT_comp_dir, &at))
		p.comp_dir = kcsan_dw.formstring(&at);
	if (kcsan_dw.attr(cu, DW_AT_name, &at))
		p.name = kcsan_dw.formstring(&at);
	if (p.name && (slash = strrchr(p.name, '/')))
		p.dirlen = (size_t)(slash - p.name);
	return p;
}

/* Is the unit at place p compiled from the directory of the unit rt, in
 * the same compilation directory? */
static int same_source_dir(const struct cu_place *p, const struct cu_place *rt)
{
	return p->comp_dir && p->name && !strcmp(p->comp_dir, rt->comp_dir) &&
	       p->dirlen == rt->dirlen && !strncmp(p->name, rt->name, rt->dirlen);
}

/*
 * The place of the runtime's own units: that of the unit holding this
 * very function (the runtime's sources are one directory, runtime/).  0
 * when the runtime was built without line tables, or its unit says no
 * place: every unit is then mapped.
 */
static int runtime_place(Dwarf *dbg, uintptr_t bias, struct cu_place *rt)
{
	const Dwarf_Addr self = (Dwarf_Addr)((uintptr_t)&kcsan_focus_map - bias);
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (kcsan_dw.nextcu(dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (kcsan_dw.offdie(dbg, off + hsize, &cu) && kcsan_dw.haspc(&cu, self) > 0) {
			*rt = cu_place(&cu);
			return rt->comp_dir && rt->name;
		}
		off = next;
	}
	return 0;
}

int kcsan_focus_map(struct kcsan_focus_sites *sites, struct kcsan_focus_table *t,
		    char *why, size_t whylen)
{
	struct mapper m = { .t = t };
	struct cu_place rt = { NULL, NULL, 0 };
	int have_rt;
	char exe[4096];
	Dwarf *dbg = NULL;
	Dwarf_Off off = 0, next;
	size_t hsize, i, j;
	ssize_t n;
	int fd = -1, rc = -1;

	memset(t, 0, sizeof(*t));
	if (kcsan_load_libdw(why, whylen))
		return -1;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		snprintf(why, whylen, "cannot find the executable");
		return -1;
	}
	exe[n] = '\0';
	dl_iterate_phdr(first_phdr, &m.bias);
	fd = open(exe, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !(dbg = kcsan_dw.begin(fd, DWARF_C_READ))) {
		snprintf(why, whylen, "%s: no DWARF debug information", exe);
		goto out;
	}
	m.s = calloc(sites->n ? sites->n : 1, sizeof(*m.s));
	m.files = calloc(sites->n ? sites->n : 1, sizeof(*m.files));
	if (!m.s || !m.files)
		goto oom;
	for (i = 0; i < sites->n; i++) {
		int fi;

		for (fi = 0; fi < m.nfiles; fi++)
			if (!strcmp(m.files[fi], sites->v[i].file))
				break;
		if (fi == m.nfiles)
			m.files[m.nfiles++] = sites->v[i].file;
		m.s[i] = (struct sorted){ &sites->v[i], fi };
	}
	m.ns = sites->n;
	qsort(m.s, m.ns, sizeof(*m.s), cmp_sorted);
	m.nfiles_norm = calloc(m.nfiles ? (size_t)m.nfiles : 1, sizeof(*m.nfiles_norm));
	if (!m.nfiles_norm)
		goto oom;
	for (int fi = 0; fi < m.nfiles; fi++) {
		char nb[1024];

		normalize(m.files[fi], nb, sizeof(nb));
		if (!(m.nfiles_norm[fi] = strdup(nb)))
			goto oom;
	}
	have_rt = runtime_place(dbg, m.bias, &rt);
	while (kcsan_dw.nextcu(dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (kcsan_dw.offdie(dbg, off + hsize, &cu)) {
			struct cu_place p = cu_place(&cu);

			if (have_rt && same_source_dir(&p, &rt))
				t->units_skipped++;
			else if (t->units_read++, map_cu(&m, &cu))
				goto oom;
		}
		off = next;
	}
	/* Sorted and merged: adjacent rows of the same sites become one. */
	qsort(t->ranges, t->nranges, sizeof(*t->ranges), cmp_range);
	for (i = 0, j = 0; i < t->nranges; i++) {
		if (j && t->ranges[j - 1].hi == t->ranges[i].lo &&
		    t->ranges[j - 1].flags == t->ranges[i].flags)
			t->ranges[j - 1].hi = t->ranges[i].hi;
		else
			t->ranges[j++] = t->ranges[i];
	}
	t->nranges = j;
	qsort(t->barriers, t->nbarriers, sizeof(*t->barriers), cmp_barrier);
	rc = 0;
	goto out;
oom:
	snprintf(why, whylen, "out of memory");
out:
	if (dbg)
		kcsan_dw.end(dbg);
	if (fd >= 0)
		close(fd);
	free(m.s);
	free(m.files);
	if (m.nfiles_norm)
		for (int fi = 0; fi < m.nfiles; fi++)
			free(m.nfiles_norm[fi]);
	free(m.nfiles_norm);
	if (rc) {
		free(t->ranges);
		free(t->barriers);
		memset(t, 0, sizeof(*t));
	}
	return rc;
}
