/* tests/unit/test_items.c — the grammar of the small languages inside the
 * facts (analyzer/model/items.c): dependency items, object keys and
 * argument lists are read back exactly as they were written, whatever the
 * names hold (a link key holds a path, and a path may hold a comma), and
 * text that does not follow the grammar is left out, never misread. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/model/items.h"

/* Parses TEXT, which must hold N items, none bad. */
static struct dep_list parsed(const char *text, int n)
{
	struct dep_list l;

	cr_assert_eq(dep_list_parse(text, &l), 0, "bad items in %s", text);
	cr_assert_eq(l.n, n, "%s: %d items, not %d", text, l.n, n);
	return l;
}

Test(items, every_role_and_source)
{
	struct dep_list l = parsed(",p,@3,$/a/b.c:get:1,~x,~@2,#2=y,#0=@7,!new,!new:/s/m.c:mk,!newarg:4,!null,#1=!new,#3=!tls,", 13);
	struct dep_item *v = l.v;

	cr_assert(v[0].role == DEP_ADDRESS && v[0].kind == DEP_LOCAL && strcmp(v[0].name, "p") == 0);
	cr_assert(v[1].kind == DEP_EVENT && v[1].n == 3);
	cr_assert(v[2].kind == DEP_PARAM && v[2].n == 1 && strcmp(v[2].name, "/a/b.c:get") == 0);
	cr_assert(v[3].role == DEP_VALUE && v[3].kind == DEP_LOCAL && strcmp(v[3].name, "x") == 0);
	cr_assert(v[4].role == DEP_VALUE && v[4].kind == DEP_EVENT && v[4].n == 2);
	cr_assert(v[5].role == DEP_ARGUMENT && v[5].arg == 2 && strcmp(v[5].name, "y") == 0);
	cr_assert(v[6].role == DEP_ARGUMENT && v[6].arg == 0 && v[6].kind == DEP_EVENT && v[6].n == 7);
	cr_assert(v[7].kind == DEP_NEW && !v[7].name);
	cr_assert(v[8].kind == DEP_NEW_FROM && strcmp(v[8].name, "/s/m.c:mk") == 0);
	cr_assert(v[9].kind == DEP_NEW_PARAM && v[9].n == 4);
	cr_assert(v[10].kind == DEP_NULL);
	cr_assert(v[11].role == DEP_ARGUMENT && v[11].arg == 1 && v[11].kind == DEP_NEW);
	cr_assert(v[12].role == DEP_ARGUMENT && v[12].arg == 3 && v[12].kind == DEP_TLS);
	cr_assert(dep_list_has(&l, DEP_ARGUMENT, DEP_NEW));
	cr_assert(!dep_list_has(&l, DEP_VALUE, DEP_NEW));
	dep_list_free(&l);
}

/* Every item written by dep_item_text is read back as itself, with
 * commas and backslashes in its names. */
Test(items, round_trip_with_commas_in_paths)
{
	struct dep_item in[] = {
		{ DEP_ADDRESS, DEP_PARAM, 0, 2, "/home/a,b/x.c:f", -1, 0, 0, 0, 0 },
		{ DEP_ARGUMENT, DEP_NEW_FROM, 3, 0, "/dir\\with,odd/y.c:alloc", -1, 0, 0, 0, 0 },
		{ DEP_VALUE, DEP_LOCAL, 0, 0, "v", -1, 0, 0, 0, 0 },
		{ DEP_ARGUMENT, DEP_EVENT, 12, 40, NULL, -1, 0, 0, 0, 0 },
		{ DEP_ARGUMENT, DEP_KEPT, 1, 7, NULL, -1, 2, 0, 0, 0 },
		{ DEP_ARGUMENT, DEP_CONST, 8, 0, NULL, -1, 0, -3, 0, 0 },
		{ DEP_GUARD, DEP_CONST, 2, 0, NULL, -1, 0, 4, 1, 0 },
		{ DEP_GUARD, DEP_NULL, 1, 0, NULL, -1, 0, 0, 0, 0 },
		{ DEP_VALUE, DEP_CONST, 0, 0, NULL, -1, 0, -1, 0, 0 },
		{ DEP_COMPARE, DEP_EVENT, 0, 9, NULL, -1, 0, 0, 0, '}' },
		{ DEP_COMPARE, DEP_LOCAL, 1, 0, "fd", -1, 0, -5, 0, '<' },
		{ DEP_ARGUMENT, DEP_TLS, 2, 0, NULL, -1, 0, 0, 0, 0 },
		{ DEP_ADDRESS, DEP_TYPE, 0, 0, "int (*)(int, void *)", -1, 0, 0, 0, 0 },
	};
	size_t n = sizeof in / sizeof in[0], len = 0;
	char *text = calloc(1, 1);
	struct dep_list l;

	for (size_t i = 0; i < n; i++) {
		char *t = dep_item_text(&in[i]);

		text = realloc(text, len + strlen(t) + 2);
		len += (size_t)sprintf(text + len, ",%s", t);
		free(t);
	}
	l = parsed(text, (int)n);
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(l.v[i].role, in[i].role);
		cr_assert_eq(l.v[i].kind, in[i].kind);
		cr_assert_eq(l.v[i].n, in[i].n);
		if (in[i].role == DEP_ARGUMENT || in[i].role == DEP_GUARD || in[i].role == DEP_COMPARE)
			cr_assert_eq(l.v[i].arg, in[i].arg);
		cr_assert_eq(l.v[i].cmp, in[i].cmp, "item %zu", i);
		cr_assert_eq(l.v[i].value, in[i].value, "item %zu", i);
		cr_assert_eq(l.v[i].differs, in[i].differs, "item %zu", i);
		cr_assert_eq(l.v[i].via, in[i].via);
		cr_assert_str_eq(l.v[i].name ? l.v[i].name : "", in[i].name ? in[i].name : "", "item %zu", i);
	}
	dep_list_free(&l);
	free(text);
}

Test(items, malformed_items_are_left_out)
{
	struct dep_list l;

	/* "@x" is no event index (atoi read it as event 0 once), "#2" has no
	 * '=', "$f" no parameter number, "!old" no mark, "~~x" no source */
	cr_assert_eq(dep_list_parse(",@x,#2,$f,!old,~~x,@99999999999,ok,", &l), 6);
	cr_assert_eq(l.n, 1);
	dep_list_free(&l);
	/* a comparison needs a successor, a letter, a number and an event or
	 * a local: "^0}:@1" has no number, "^0?1:@1" no letter, "^}1:@1" no
	 * successor, "^0}1@1" no ':', "^0}1:%3" compares no read */
	cr_assert_eq(dep_list_parse(",^0}:@1,^0?1:@1,^}1:@1,^0}1@1,^0}1:%3,ok,", &l), 5);
	cr_assert_eq(l.n, 1);
	cr_assert_str_eq(l.v[0].name, "ok");
	dep_list_free(&l);
	cr_assert_eq(dep_list_parse(NULL, &l), 0);
	cr_assert_eq(l.n, 0);
	cr_assert_eq(dep_list_parse(",,,", &l), 0);
	cr_assert_eq(l.n, 0);
}

Test(items, object_keys)
{
	struct object_ref r;
	char *fn;

	object_ref_parse("c:@flag", &r);
	cr_assert(r.kind == OBJ_USR && r.global && !r.elements && !r.shared);
	object_ref_parse("c:@buf[]", &r);
	cr_assert(r.kind == OBJ_USR && r.global && r.elements);
	object_ref_parse("c:@S@q@FI@head", &r);
	cr_assert(r.kind == OBJ_USR && !r.global);
	object_ref_parse("c:@buf#/t/prog.c[]", &r);
	cr_assert(r.kind == OBJ_USR && !r.global && r.elements, "a scoped global is scoped once");
	object_ref_parse("shared:c:@lock", &r);
	cr_assert(r.kind == OBJ_USR && r.shared && r.global);
	object_ref_parse("p:/a:b/c.c:get:3", &r);
	cr_assert(r.kind == OBJ_PARAM && r.param == 3);
	cr_assert(object_is_param_of("p:/a:b/c.c:get:3", &r, "/a:b/c.c:get"));
	cr_assert(!object_is_param_of("p:/a:b/c.c:get:3", &r, "/a:b/c.c:ge"));
	fn = object_function("p:/a:b/c.c:get:3", &r);
	cr_assert_str_eq(fn, "/a:b/c.c:get");
	free(fn);
	object_ref_parse("f:worker", &r);
	cr_assert(r.kind == OBJ_FUNCTION);
	fn = object_function("f:worker", &r);
	cr_assert_str_eq(fn, "worker");
	free(fn);
	object_ref_parse("l:/x.c:f:v", &r);
	cr_assert(r.kind == OBJ_LOCAL);
	cr_assert(object_is_local_of("l:/x.c:f:v", &r, "/x.c:f", "v"));
	cr_assert(!object_is_local_of("l:/x.c:f:v", &r, "/x.c:f", "w"));
	cr_assert(!object_is_local_of("l:/x.c:f:v", &r, "/x.c:g", "v"));
	object_ref_parse("t:struct node", &r);
	cr_assert(r.kind == OBJ_TYPE);
	object_ref_parse("p:nonumber", &r);
	cr_assert(r.kind == OBJ_OTHER);
	object_ref_parse(NULL, &r);
	cr_assert(r.kind == OBJ_NONE);
}

Test(items, argument_lists)
{
	struct arg_list l;
	char *text;

	arg_list_parse("c:@a\x1f\x1f" "f:thr", &l);
	cr_assert_eq(l.n, 3);
	cr_assert_str_eq(l.v[0], "c:@a");
	cr_assert_null(l.v[1], "an empty argument is none");
	cr_assert(l.ref[2].kind == OBJ_FUNCTION && l.ref[0].kind == OBJ_USR && l.ref[1].kind == OBJ_NONE);
	text = arg_list_text(&l);
	cr_assert_str_eq(text, "c:@a\x1f\x1f" "f:thr");
	free(text);
	arg_list_free(&l);
	arg_list_parse(NULL, &l);
	cr_assert_eq(l.n, 0);
	cr_assert_null(arg_list_text(&l));
	arg_list_free(&l);
}

Test(items, sinks)
{
	cr_assert_eq(value_sink_parse(NULL), SINK_NONE);
	cr_assert_eq(value_sink_parse("tmp"), SINK_LOCAL);
	cr_assert_eq(value_sink_parse("?test"), SINK_TEST);
	cr_assert_eq(value_sink_parse("?ret"), SINK_RETURN);
	cr_assert_eq(value_sink_parse("?loop"), SINK_LOOP);
	cr_assert_eq(value_sink_parse("?what"), SINK_NONE);
}

Test(objects, unscoped_drops_the_program_and_keeps_the_elements)
{
	char *a = object_unscoped("c:@goflag#/t/count_lim.c");
	char *b = object_unscoped("c:@buf#/t/p.c[]");
	char *c = object_unscoped("c:@S@q@FI@p");
	char *d = object_unscoped("c:@F@f#I#");

	cr_assert_str_eq(a, "c:@goflag");
	cr_assert_str_eq(b, "c:@buf[]");
	cr_assert_str_eq(c, "c:@S@q@FI@p");
	cr_assert_str_eq(d, "c:@F@f#I#");
	cr_assert_null(object_unscoped(NULL));
	free(a), free(b), free(c), free(d);
}
