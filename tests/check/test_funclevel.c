/* Unit tests of the function-level rule (check/stages/funclevel.h): each rule on small files before
 * and after a fix, and the text form the fingerprints store. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "check/records/recset.h"
#include "check/stages/funclevel.h"
#include "check/stages/functree.h"
#include "check/verdict/check.h"
#include "codefix/match.h"
#include "core/fileio.h"
#include "core/xalloc.h"
#include "csrc/funcscan.h"

static const char before[] = "#define LIMIT 1\n"            /* 1 */
			     "int frob(int x)\n"             /* 2 */
			     "{\n"                           /* 3 */
			     "\treturn x + LIMIT;\n"         /* 4 */
			     "}\n"                           /* 5 */
			     "static int helper(void)\n"     /* 6 */
			     "{\n"                           /* 7 */
			     "\treturn 0;\n"                 /* 8 */
			     "}\n"                           /* 9 */
			     "SYSCALL_DEFINE1(thing, int, a)\n" /* 10 */
			     "{\n"                           /* 11 */
			     "\treturn a;\n"                 /* 12 */
			     "}\n";                          /* 13 */
static const char after[] = "#define LIMIT 2\n"             /* 1 */
			    "int frob(int x)\n"              /* 2 */
			    "{\n"                            /* 3 */
			    "\treturn check(x) + LIMIT;\n"   /* 4 */
			    "}\n"                            /* 5 */
			    "static int helper(void)\n"      /* 6 */
			    "{\n"                            /* 7 */
			    "\treturn 1;\n"                  /* 8 */
			    "}\n"                            /* 9 */
			    "SYSCALL_DEFINE1(thing, int, a)\n" /* 10 */
			    "{\n"                            /* 11 */
			    "\treturn -a;\n"                 /* 12 */
			    "}\n"                            /* 13 */
			    "int check(int x)\n"             /* 14 */
			    "{\n"                            /* 15 */
			    "\treturn x;\n"                  /* 16 */
			    "}\n";                           /* 17 */

static struct ksyms image(const char *map, unsigned cover)
{
	struct ksyms k = {0};
	ksyms_parse_map(&k, map, strlen(map));
	k.cover = cover;
	snprintf(k.desc, sizeof k.desc, "test map");
	return k;
}

/* A fix changing line `line` on both sides (and, with adds_check, adding check()). */
static enum fl_verdict decide(unsigned line, bool adds_check, const struct ksyms *k,
			      const char **why_out)
{
	static char why[1024];
	struct fl_range r = {line, line}, add[2] = {{line, line}, {14, 16}};
	struct fl_fix fx = {0};
	fl_fix_add_file(&fx, "f.c", before, sizeof before - 1, &r, 1, after, sizeof after - 1, add,
			adds_check ? 2 : 1);
	struct strbuf sb = STRBUF_INIT;
	enum fl_verdict v = fl_decide(&fx, k, NULL, NULL, &sb);
	snprintf(why, sizeof why, "%s", sb_str(&sb));
	*why_out = why;
	sb_release(&sb);
	fl_fix_release(&fx);
	return v;
}

static void test_rules(void **state)
{
	(void)state;
	const char *why;
	struct ksyms none = image("0 T _text\n", KSYMS_VMLINUX | KSYMS_MODULES);
	struct ksyms has = image("0 T _text\n0 T frob.cold\n0 T __x64_sys_thing\n",
				 KSYMS_VMLINUX | KSYMS_MODULES);
	struct ksyms vmonly = image("0 T _text\n", KSYMS_VMLINUX);
	assert_int_equal(decide(4, true, &none, &why), FL_ABSENT); /* frob and the added check */
	assert_non_null(strstr(why, "not affected: the changed code is not in this kernel: frob (f.c)"));
	assert_int_equal(decide(4, true, &has, &why), FL_PRESENT); /* frob.cold counts as frob */
	assert_int_equal(decide(12, false, &has, &why), FL_PRESENT);
	assert_non_null(strstr(why, "syscall thing"));
	assert_int_equal(decide(12, false, &none, &why), FL_ABSENT);
	assert_int_equal(decide(8, false, &none, &why), FL_UNDECIDED); /* static helper */
	assert_non_null(strstr(why, "is static"));
	assert_int_equal(decide(1, false, &none, &why), FL_UNDECIDED); /* #define only */
	assert_non_null(strstr(why, "changes no function"));
	none.lto = true;
	assert_int_equal(decide(4, true, &none, &why), FL_UNDECIDED);
	assert_non_null(strstr(why, "link-time optimisation"));
	none.lto = false;
	assert_int_equal(decide(4, false, &vmonly, &why), FL_UNDECIDED); /* modules not covered */
	assert_non_null(strstr(why, "does not cover the modules"));
	/* only the added function */
	struct fl_fix fx = {0};
	struct fl_range add = {14, 16};
	fl_fix_add_file(&fx, "f.c", before, sizeof before - 1, NULL, 0, after, sizeof after - 1, &add, 1);
	assert_int_equal(fx.n, 1);
	assert_true(fx.fn[0].added);
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(fl_decide(&fx, &none, NULL, NULL, &sb), FL_UNDECIDED);
	assert_non_null(strstr(sb_str(&sb), "only adds functions"));
	fl_fix_release(&fx);
	/* not C: a Rust "fn" or an assembly file is never read as functions */
	fl_fix_add_file(&fx, "rust/kernel/x.rs", before, sizeof before - 1, &add, 1, after,
			sizeof after - 1, &add, 1);
	assert_int_equal(fx.n, 0);
	assert_true(fx.outside);
	fl_fix_release(&fx);
	/* a new file: its functions are added */
	fl_fix_add_file(&fx, "g.c", NULL, 0, NULL, 0, after, sizeof after - 1, &add, 1);
	assert_true(fx.fn[0].added);
	fl_fix_release(&fx);
	sb_release(&sb);
	ksyms_free(&none);
	ksyms_free(&has);
	ksyms_free(&vmonly);
}

static void test_text_form(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	struct fl_range del[2] = {{1, 1}, {8, 12}}, add[2] = {{1, 1}, {8, 16}};
	fl_hunk_funcs(&sb, before, sizeof before - 1, del, 2, after, sizeof after - 1, add, 2);
	assert_string_equal(sb_str(&sb), "helper:s,thing:y,check:a,!");
	struct fl_fix fx = {0};
	fl_fix_add_text(&fx, "f.c", sb_str(&sb));
	assert_int_equal(fx.n, 3);
	assert_true(fx.outside);
	assert_int_equal(fx.fn[0].flags, FUNCSCAN_STATIC);
	assert_int_equal(fx.fn[1].flags, FUNCSCAN_SYSCALL);
	assert_true(fx.fn[2].added);
	fl_fix_release(&fx);
	/* names without specifiers (a fingerprint made without the source): never absent */
	struct ksyms none = image("0 T _text\n", KSYMS_VMLINUX | KSYMS_MODULES);
	struct ksyms has = image("0 T _text\n0 T frob\n", KSYMS_VMLINUX | KSYMS_MODULES);
	fl_fix_add_text(&fx, "f.c", "frob,,");
	sb_reset(&sb);
	assert_int_equal(fl_decide(&fx, &none, NULL, NULL, &sb), FL_UNDECIDED);
	assert_non_null(strstr(sb_str(&sb), "not known to be non-static"));
	assert_int_equal(fl_decide(&fx, &has, NULL, NULL, &sb), FL_PRESENT);
	fl_fix_release(&fx);
	fl_fix_add_text(&fx, "f.c", "frob:");
	assert_int_equal(fl_decide(&fx, &none, NULL, NULL, &sb), FL_ABSENT);
	fl_fix_release(&fx);
	fl_fix_add_text(&fx, "arch/x86/entry/entry_64.S", "frob:");
	assert_int_equal(fx.n, 0);
	assert_true(fx.outside);
	fl_fix_release(&fx);
	fl_fix_add_text(&fx, "f.c", ":x,!,:"); /* no names: nothing but "outside" */
	assert_int_equal(fx.n, 0);
	assert_true(fx.outside);
	fl_fix_release(&fx);
	sb_release(&sb);
	ksyms_free(&none);
	ksyms_free(&has);
}

/* The fingerprint lookup of the stage test: CVE-1 changes frob, CVE-2 the static helper,
 * CVE-3 has no fingerprint. */
static bool lookup(void *ctx, const struct ck_set *s, const struct ck_record *r,
		   const struct ck_code *code, struct fl_fix *out)
{
	(void)ctx;
	(void)s;
	(void)code;
	if (strcmp(r->id, "CVE-1") == 0)
		fl_fix_add_text(out, "f.c", "frob:");
	else if (strcmp(r->id, "CVE-2") == 0)
		fl_fix_add_text(out, "f.c", "helper:s");
	else
		return false;
	return true;
}

static void test_stage(void **state)
{
	(void)state;
	struct ck_record recs[3] = {{.id = "CVE-1"}, {.id = "CVE-2"}, {.id = "CVE-3"}};
	struct ck_set set = {.v = recs, .n = 3};
	struct ck_entry e[3] = {{.rec = 0, .outcome = CK_OUT_AFFECTED, .stage = "version"},
				{.rec = 1, .outcome = CK_OUT_AFFECTED, .stage = "version"},
				{.rec = 2, .outcome = CK_OUT_AFFECTED, .stage = "version"}};
	struct ck_result res = {.e = e, .n = 3};
	struct ksyms none = image("0 T _text\n", KSYMS_VMLINUX | KSYMS_MODULES);
	struct ck_func_input in = {.syms = &none, .fix_funcs = lookup};
	ck_run_functions(&set, &res, &in);
	assert_int_equal(e[0].outcome, CK_OUT_NOT_COMPILED);
	assert_string_equal(e[0].stage, "functions");
	assert_non_null(strstr(e[0].reason, "not affected: the changed code is not in this kernel: frob (f.c) not in test map"));
	assert_int_equal(e[1].outcome, CK_OUT_AFFECTED); /* static: kept */
	assert_int_equal(e[2].outcome, CK_OUT_AFFECTED); /* no fingerprint: kept */
	assert_int_equal(res.nstages, 1);
	assert_string_equal(res.stages[0].name, "functions");
	assert_int_equal(res.stages[0].count, 2);
	free(e[0].reason);
	ksyms_free(&none);
}

/* ---- a --patches fingerprint's functions read in the tree (check/stages/functree.h) ---- */

static const char tree_c[] = "int foo(int x)\n"        /* 1 */
			     "{\n"                     /* 2 */
			     "\tint y = x * 3;\n"      /* 3 */
			     "\ty += 7;\n"             /* 4 */
			     "\treturn y;\n"           /* 5 */
			     "}\n"                     /* 6 */
			     "EXPORT_SYMBOL(foo);\n"   /* 7 */
			     "#endif\n"                /* 8 */
			     "\n"                      /* 9 */
			     "int bar(void)\n"         /* 10 */
			     "{\n"                     /* 11 */
			     "\treturn 2;\n"           /* 12 */
			     "}\n"                     /* 13 */
			     "static int baz(void)\n"  /* 14 */
			     "{\n"                     /* 15 */
			     "\treturn 3;\n"           /* 16 */
			     "}\n"                     /* 17 */
			     "static const int tbl[] = { 1, 2 };\n"; /* 18 */

/* The functions of a one-hunk patch of t.c read in a tree holding tree_c; code NULL: the hunk
 * was not found (its header decides), else it was found vulnerable at [first, last]. */
static void tree_funcs_in(const char *text, const char *hunk, const unsigned *span, bool ins,
			  struct fl_fix *fx);
static void tree_funcs(const char *hunk, const unsigned *span, bool ins, struct fl_fix *fx)
{
	tree_funcs_in(tree_c, hunk, span, ins, fx);
}

/* The same in a tree whose t.c holds text. */
static void tree_funcs_in(const char *text, const char *hunk, const unsigned *span, bool ins,
			  struct fl_fix *fx)
{
	char dir[] = "/tmp/kcve-functree-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *path = path_join(dir, "t.c");
	assert_int_equal(atomic_write_file(path, text, strlen(text), 0644), 0);
	struct strbuf patch = STRBUF_INIT;
	sb_addf(&patch, "--- a/t.c\n+++ b/t.c\n%s", hunk);
	struct cf_patch p;
	struct kcve_err err = {0};
	if (cf_patch_parse(&p, patch.buf, patch.len, "t", &err) != 0)
		fail_msg("%s in %s", err.msg, patch.buf);
	struct cf_set cs;
	cf_set_init(&cs);
	assert_true(cf_set_add_patch(&cs, "CVE-1", "patch", &p) > 0);
	struct cf_ev ev = {.file = cs.v[0].f[0].path, .state = CF_H_VULN, .line = 1,
			   .first = span ? span[0] : 0, .last = span ? span[1] : 0, .ins = ins};
	struct ck_code code = {true, CF_VULNERABLE, 1, 1, "patch", &ev, 1};
	assert_true(ck_fix_funcs_tree(dir, &cs, &cs.v[0], span ? &code : NULL, fx));
	cf_set_release(&cs);
	cf_patch_release(&p);
	sb_release(&patch);
	unlink(path);
	rmdir(dir);
	free(path);
}

static void tree_route(void **state)
{
	(void)state;
	struct fl_fix fx = {0};
	/* not found: the header's function; EXPORT_SYMBOL and #endif after it are quiet */
	tree_funcs("@@ -3,3 +3,3 @@ int foo(int x)\n \tint y = x * 3;\n-\ty += 6;\n+\ty += 7;\n \treturn y;\n",
		   NULL, false, &fx);
	assert_int_equal(fx.n, 1);
	assert_string_equal(fx.fn[0].name, "foo");
	assert_false(fx.outside);
	assert_int_equal(fx.from_header, 1);
	fl_fix_release(&fx);
	/* a function starting inside the hunk is taken too (the header names the one above) */
	tree_funcs("@@ -8,5 +8,5 @@ int foo(int x)\n #endif\n \n int bar(void)\n {\n-\treturn 1;\n+\treturn 2;\n",
		   NULL, false, &fx);
	assert_int_equal(fx.n, 2);
	assert_string_equal(fx.fn[1].name, "bar");
	fl_fix_release(&fx);
	/* data after the header's function: the hunk may change it */
	tree_funcs("@@ -15,3 +15,3 @@ static int baz(void)\n {\n-\treturn 4;\n+\treturn 3;\n }\n",
		   NULL, false, &fx);
	assert_true(fx.outside);
	fl_fix_release(&fx);
	/* a header that is a prototype of the function, not its definition: the hunk lies after
	 * the declaration (data, macros), anywhere but in the function the header names */
	tree_funcs("@@ -3,3 +3,3 @@ int foo(int x);\n \tint y = x * 3;\n-\ty += 6;\n+\ty += 7;\n \treturn y;\n",
		   NULL, false, &fx);
	assert_true(fx.outside);
	assert_int_equal(fx.from_header, 0);
	fl_fix_release(&fx);
	/* a header that calls the function ("foo(y);" at the start of a line): the same */
	tree_funcs("@@ -3,3 +3,3 @@ foo(y);\n \tint y = x * 3;\n-\ty += 6;\n+\ty += 7;\n \treturn y;\n",
		   NULL, false, &fx);
	assert_true(fx.outside);
	fl_fix_release(&fx);
	/* a header cut short by diff (GNU diff -p keeps 40 bytes) still names the definition */
	tree_funcs("@@ -3,3 +3,3 @@ int foo(in\n \tint y = x * 3;\n-\ty += 6;\n+\ty += 7;\n \treturn y;\n",
		   NULL, false, &fx);
	assert_false(fx.outside);
	assert_int_equal(fx.from_header, 1);
	fl_fix_release(&fx);
	/* a #define after the header's function: the hunk may change it, and every function
	 * after it that uses the macro (only #if/#ifdef/#ifndef/#elif/#else/#endif are quiet) */
	static const char define_c[] = "int foo(int x)\n{\n\treturn x;\n}\n"
				       "#define FOO_MAX 16\n\n\n\n"
				       "int bar(void)\n{\n\treturn FOO_MAX;\n}\n";
	tree_funcs_in(define_c, "@@ -5,1 +5,1 @@ int foo(int x)\n-#define FOO_MAX 8\n+#define FOO_MAX 16\n",
		      NULL, false, &fx);
	assert_true(fx.outside);
	fl_fix_release(&fx);
	static const char endif_c[] = "#ifdef CONFIG_FOO\nint foo(int x)\n{\n\treturn x;\n}\n"
				      "#  endif /* CONFIG_FOO */\n\n\n\n"
				      "int bar(void)\n{\n\treturn 2;\n}\n";
	tree_funcs_in(endif_c, "@@ -4,1 +4,1 @@ int foo(int x)\n-\treturn 0;\n+\treturn x;\n",
		      NULL, false, &fx);
	assert_false(fx.outside);
	assert_int_equal(fx.n, 1);
	fl_fix_release(&fx);
	/* a header naming no function of the file */
	tree_funcs("@@ -3,2 +3,2 @@ int gone(int x)\n \tint y = x * 3;\n-\ty += 6;\n+\ty += 7;\n",
		   NULL, false, &fx);
	assert_true(fx.outside);
	assert_int_equal(fx.n, 0);
	struct ksyms none = image("0 T _text\n", KSYMS_VMLINUX | KSYMS_MODULES);
	struct strbuf why = STRBUF_INIT;
	assert_int_equal(fl_decide(&fx, &none, NULL, NULL, &why), FL_UNDECIDED);
	assert_non_null(strstr(sb_str(&why), "no changed function could be read in the source tree"));
	sb_release(&why);
	ksyms_free(&none);
	fl_fix_release(&fx);
	/* found: the functions the span overlaps, flags from the scan */
	static const unsigned in_baz[] = {16, 16}, between[] = {6, 10}, in_bar[] = {11, 12};
	tree_funcs("@@ -15,3 +15,3 @@ static int baz(void)\n {\n-\treturn 4;\n+\treturn 3;\n }\n",
		   in_baz, false, &fx);
	assert_int_equal(fx.n, 1);
	assert_string_equal(fx.fn[0].name, "baz");
	assert_true(fx.fn[0].flags & FUNCSCAN_STATIC);
	assert_int_equal(fx.from_place, 1);
	fl_fix_release(&fx);
	/* a change placed between two lines of two functions: outside */
	tree_funcs("@@ -3,2 +3,2 @@ int foo(int x)\n \tint y = x * 3;\n-\ty += 6;\n+\ty += 7;\n",
		   between, true, &fx);
	assert_true(fx.outside);
	fl_fix_release(&fx);
	/* ... the same place inside one function is that function */
	tree_funcs("@@ -3,2 +3,2 @@ int foo(int x)\n \tint y = x * 3;\n-\ty += 6;\n+\ty += 7;\n",
		   in_bar, true, &fx);
	assert_false(fx.outside);
	assert_int_equal(fx.n, 1);
	assert_string_equal(fx.fn[0].name, "bar");
	fl_fix_release(&fx);
	/* ... but a place after a function's closing brace (the next line a comment, which the
	 * scan counts in no function) or before its opening one is outside it: the fix adds code
	 * between functions (a helper, a table, an initcall) */
	static const char comment_c[] = "int foo(int x)\n{\n\treturn x;\n}\n" /* 1-4 */
					"/* the next one */\n"                 /* 5 */
					"int bar(void)\n{\n\treturn 2;\n}\n";  /* 6-9 */
	static const unsigned after_foo[] = {4, 5}, before_bar[] = {5, 6}, in_foo[] = {2, 3};
	const char *add = "@@ -3,2 +3,3 @@ int foo(int x)\n \treturn x;\n+\tx++;\n }\n";
	tree_funcs_in(comment_c, add, after_foo, true, &fx);
	assert_true(fx.outside);
	fl_fix_release(&fx);
	tree_funcs_in(comment_c, add, before_bar, true, &fx);
	assert_true(fx.outside);
	fl_fix_release(&fx);
	tree_funcs_in(comment_c, add, in_foo, true, &fx); /* after "{": inside */
	assert_false(fx.outside);
	assert_int_equal(fx.n, 1);
	assert_string_equal(fx.fn[0].name, "foo");
	fl_fix_release(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_text_form),
		cmocka_unit_test(test_stage),
		cmocka_unit_test(tree_route),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
