/* Unit tests of the C function boundary scanner (csrc/funcscan.h): kernel-shaped sources with
 * every construct the scanner must tell apart, and the line each answer is expected at. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "csrc/funcscan.h"

static void scan(struct funcscan *fs, const char *src)
{
	memset(fs, 0, sizeof *fs);
	funcscan_scan(fs, src, strlen(src));
}

static const struct funcscan_fn *find(const struct funcscan *fs, const char *name)
{
	for (size_t i = 0; i < fs->n; i++)
		if (strcmp(fs->fn[i].name, name) == 0)
			return &fs->fn[i];
	return NULL;
}

static void expect_fn(const struct funcscan *fs, const char *name, unsigned decl, unsigned end,
		      unsigned flags)
{
	const struct funcscan_fn *f = find(fs, name);
	if (!f)
		fail_msg("function %s not found", name);
	assert_int_equal(f->decl_line, decl);
	assert_int_equal(f->end_line, end);
	assert_int_equal(f->flags, flags);
}

static void test_kernel_style(void **state)
{
	(void)state;
	const char *src = "// SPDX-License-Identifier: GPL-2.0\n"  /* 1 */
			  "#include <linux/fs.h>\n"                /* 2 */
			  "/* a comment with { and } and foo(x) {\n" /* 3 */
			  " */\n"                                  /* 4 */
			  "static int counter = 0;\n"              /* 5 */
			  "static inline int helper(int a)\n"      /* 6 */
			  "{\n"                                    /* 7 */
			  "\treturn a + '{';\n"                    /* 8 */
			  "}\n"                                    /* 9 */
			  "\n"                                     /* 10 */
			  "int __init exported_init(void)\n"       /* 11 */
			  "{\n"                                    /* 12 */
			  "\tconst char *s = \"}\\\" {\";\n"       /* 13 */
			  "\tif (s) {\n"                           /* 14 */
			  "\t\tcounter++;\n"                       /* 15 */
			  "\t}\n"                                  /* 16 */
			  "\treturn 0;\n"                          /* 17 */
			  "}\n"                                    /* 18 */
			  "EXPORT_SYMBOL(exported_init);\n"        /* 19 */
			  "static const struct file_operations fops = {\n" /* 20 */
			  "\t.open = helper_open,\n"               /* 21 */
			  "};\n"                                   /* 22 */
			  "struct thing {\n"                       /* 23 */
			  "\tint (*cb)(int);\n"                    /* 24 */
			  "};\n"                                   /* 25 */
			  "static void\n"                          /* 26 */
			  "multi_line(struct thing *t,\n"          /* 27 */
			  "\t   int b)\n"                          /* 28 */
			  "__must_hold(&t->lock)\n"                /* 29 */
			  "{\n"                                    /* 30 */
			  "}\n";                                   /* 31 */
	struct funcscan fs;
	scan(&fs, src);
	assert_int_equal(fs.n, 3);
	expect_fn(&fs, "helper", 6, 9, FUNCSCAN_STATIC | FUNCSCAN_INLINE);
	expect_fn(&fs, "exported_init", 11, 18, 0);
	expect_fn(&fs, "multi_line", 26, 31, FUNCSCAN_STATIC);
	assert_int_equal(find(&fs, "multi_line")->name_line, 27);
	assert_int_equal(find(&fs, "multi_line")->body_line, 30);
	assert_true(funcscan_has_symbol(find(&fs, "exported_init")));
	assert_false(funcscan_has_symbol(find(&fs, "helper")));
	assert_false(funcscan_has_symbol(find(&fs, "multi_line")));
	funcscan_free(&fs);
}

static void test_at_and_range(void **state)
{
	(void)state;
	const char *src = "int a(void)\n"   /* 1 */
			  "{\n"             /* 2 */
			  "}\n"             /* 3 */
			  "int x;\n"        /* 4 */
			  "int b(void)\n"   /* 5 */
			  "{\n"             /* 6 */
			  "\treturn 1;\n"   /* 7 */
			  "}\n"             /* 8 */
			  "int c(void) {}\n"; /* 9 */
	struct funcscan fs;
	scan(&fs, src);
	assert_int_equal(fs.n, 3);
	assert_string_equal(funcscan_at(&fs, 2)->name, "a");
	assert_null(funcscan_at(&fs, 4));
	assert_string_equal(funcscan_at(&fs, 7)->name, "b");
	assert_string_equal(funcscan_at(&fs, 9)->name, "c");
	assert_null(funcscan_at(&fs, 10));
	assert_null(funcscan_at(&fs, 0));
	size_t idx[4];
	bool out = true;
	assert_int_equal(funcscan_range(&fs, 6, 8, idx, 4, &out), 1);
	assert_false(out);
	assert_int_equal(idx[0], 1);
	assert_int_equal(funcscan_range(&fs, 3, 5, idx, 4, &out), 2); /* a's end, x, b's start */
	assert_true(out);
	assert_int_equal(funcscan_range(&fs, 5, 9, idx, 4, &out), 2);
	assert_false(out);
	assert_int_equal(funcscan_range(&fs, 4, 4, idx, 4, &out), 0);
	assert_true(out);
	assert_int_equal(funcscan_range(&fs, 1, 9, idx, 1, &out), 3); /* count beyond max */
	assert_true(out);
	funcscan_free(&fs);
	/* comments and blank lines between functions are not "outside"; a #define is */
	scan(&fs, "int a(void)\n{\n}\n/**\n * b - doc\n */\n\nint b(void)\n{\n}\n#define X 1\n");
	assert_int_equal(funcscan_range(&fs, 2, 9, idx, 4, &out), 2);
	assert_false(out);
	assert_int_equal(funcscan_range(&fs, 4, 7, idx, 4, &out), 0); /* only the comment */
	assert_false(out);
	assert_int_equal(funcscan_range(&fs, 9, 11, idx, 4, &out), 1);
	assert_true(out);
	assert_int_equal(funcscan_range(&fs, 20, 21, idx, 4, &out), 0); /* past the end */
	assert_true(out);
	funcscan_free(&fs);
}

static void test_syscalls_and_macros(void **state)
{
	(void)state;
	const char *src = "SYSCALL_DEFINE3(read, unsigned int, fd, char __user *, buf,\n" /* 1 */
			  "\t\tsize_t, count)\n"                                  /* 2 */
			  "{\n"                                                  /* 3 */
			  "\treturn ksys_read(fd, buf, count);\n"                /* 4 */
			  "}\n"                                                  /* 5 */
			  "COMPAT_SYSCALL_DEFINE2(foo, int, a, int, b)\n"        /* 6 */
			  "{\n"                                                  /* 7 */
			  "}\n"                                                  /* 8 */
			  "BPF_CALL_2(bpf_helper, u64, a, u64, b)\n"             /* 9 */
			  "{\n"                                                  /* 10 */
			  "}\n"                                                  /* 11 */
			  "DEFINE_SHOW_ATTRIBUTE(stats);\n"                      /* 12 */
			  "static DEVICE_ATTR_RO(version);\n"                    /* 13 */
			  "SEC(\"kprobe/x\") int prog(void *ctx)\n"              /* 14 */
			  "{\n"                                                  /* 15 */
			  "}\n"                                                  /* 16 */
			  "static int CAPS(void)\n"                              /* 17 */
			  "{\n"                                                  /* 18 */
			  "}\n"                                                  /* 19 */
			  "__printf(2, 3) void __attribute__((cold)) logit(int l, const char *f, ...)\n" /* 20 */
			  "{\n"                                                  /* 21 */
			  "}\n";                                                 /* 22 */
	struct funcscan fs;
	scan(&fs, src);
	assert_int_equal(fs.n, 6);
	expect_fn(&fs, "read", 1, 5, FUNCSCAN_SYSCALL);
	expect_fn(&fs, "foo", 6, 8, FUNCSCAN_COMPAT);
	expect_fn(&fs, "bpf_helper", 9, 11, FUNCSCAN_MACRO);
	expect_fn(&fs, "prog", 14, 16, 0);
	expect_fn(&fs, "CAPS", 17, 19, FUNCSCAN_STATIC);
	expect_fn(&fs, "logit", 20, 22, 0);
	char buf[256];
	const char *sym[8];
	size_t n = funcscan_symbols(find(&fs, "read"), buf, sizeof buf, sym, 8);
	assert_int_equal(n, 6);
	assert_string_equal(sym[0], "__x64_sys_read");
	assert_string_equal(sym[5], "sys_read");
	n = funcscan_symbols(find(&fs, "foo"), buf, sizeof buf, sym, 8);
	assert_string_equal(sym[1], "__ia32_compat_sys_foo");
	assert_int_equal(funcscan_symbols(find(&fs, "bpf_helper"), buf, sizeof buf, sym, 8), 0);
	assert_int_equal(funcscan_symbols(find(&fs, "logit"), buf, sizeof buf, sym, 8), 1);
	assert_string_equal(sym[0], "logit");
	assert_int_equal(funcscan_symbols(find(&fs, "read"), buf, 20, sym, 8), 1); /* buf too small */
	funcscan_free(&fs);
}

static void test_preprocessor(void **state)
{
	(void)state;
	const char *src = "#define DEF(x) int x(void) { return 0; }\n" /* 1 */
			  "#define LONG(x) \\\n"                        /* 2 */
			  "\tint x(void) {\n"                           /* 3 */
			  "int f(int a)\n"                              /* 4 */
			  "{\n"                                         /* 5 */
			  "#ifdef CONFIG_A\n"                           /* 6 */
			  "\tif (a) {\n"                                /* 7 */
			  "#else\n"                                     /* 8 */
			  "\tif (!a) {\n"                               /* 9 */
			  "#endif\n"                                    /* 10 */
			  "\t\ta++;\n"                                  /* 11 */
			  "\t}\n"                                       /* 12 */
			  "\treturn a;\n"                               /* 13 */
			  "}\n"                                         /* 14 */
			  "#if 0 /* a comment\n"                        /* 15 */
			  "   over lines */\n"                          /* 16 */
			  "#endif\n"                                    /* 17 */
			  "#ifdef CONFIG_B\n"                           /* 18 */
			  "int g(int a, int b)\n"                       /* 19 */
			  "#else\n"                                     /* 20 */
			  "int g(int a)\n"                              /* 21 */
			  "#endif\n"                                    /* 22 */
			  "{\n"                                         /* 23 */
			  "}\n"                                         /* 24 */
			  "#ifdef X\n"                                  /* 25 */
			  "void h(void) {\n"                            /* 26 */
			  "#else\n"                                     /* 27 */
			  "void h(void) {\n"                            /* 28 */
			  "#endif\n"                                    /* 29 */
			  "}\n";                                        /* 30 */
	struct funcscan fs;
	scan(&fs, src);
	assert_int_equal(fs.n, 3);
	expect_fn(&fs, "f", 4, 14, 0);
	expect_fn(&fs, "g", 19, 24, 0);
	expect_fn(&fs, "h", 26, 30, 0);
	funcscan_free(&fs);
}

static void test_declarations_are_not_functions(void **state)
{
	(void)state;
	const char *src = "int proto(int a);\n"
			  "extern void (*hook)(int);\n"
			  "static int (*table[])(void) = { a, b };\n"
			  "struct s { int x; } var = { 1 };\n"
			  "enum e { A = 1, B };\n"
			  "union u { int i; };\n"
			  "asm(\".globl x\");\n"
			  "_Static_assert(sizeof(int) == 4, \"x\");\n"
			  "int arr[] = { [0] = 1 };\n"
			  "}\n" /* stray brace */
			  "BTF_ID_LIST(ids)\n"
			  "BTF_ID(struct, x)\n"
			  "static int __init after_macros(void)\n"
			  "{\n"
			  "}\n"
			  "module_init(after_macros)\n"
			  "u32 no_semicolon_before(void)\n"
			  "{\n"
			  "}\n"
			  "int PRINT_NAME(sym)(int a) { }\n"
			  "static int (*getter(int which))(void)\n"
			  "{\n"
			  "}\n";
	struct funcscan fs;
	scan(&fs, src);
	assert_int_equal(fs.n, 4);
	expect_fn(&fs, "after_macros", 13, 15, FUNCSCAN_STATIC);
	expect_fn(&fs, "no_semicolon_before", 17, 19, 0);
	expect_fn(&fs, "sym", 20, 20, FUNCSCAN_MACRO);
	expect_fn(&fs, "getter", 21, 23, FUNCSCAN_STATIC);
	funcscan_free(&fs);
}

static void test_hostile(void **state)
{
	(void)state;
	struct funcscan fs = {0};
	const char unclosed[] = "int f(void)\n{\n\tif (x) {\n\t\"unterminated\n";
	funcscan_scan(&fs, unclosed, sizeof unclosed - 1);
	assert_int_equal(fs.n, 1);
	assert_int_equal(fs.fn[0].end_line, 5); /* the end of the file */
	const char nul[] = "int f(void)\0{ }\nint g(void) { }";
	funcscan_scan(&fs, nul, sizeof nul - 1); /* rescanning replaces */
	assert_int_equal(fs.n, 2);
	funcscan_scan(&fs, "", 0);
	assert_int_equal(fs.n, 0);
	funcscan_scan(&fs, "/* x", 4);
	funcscan_scan(&fs, "int f\\", 6); /* a line splice as the last byte */
	funcscan_scan(&fs, "#if\\", 4);
	funcscan_scan(&fs, "#if\n#if\n#else\n}}}}\n#endif\n#endif\n#endif\n#else\n", 47);
	assert_int_equal(fs.n, 0);
	funcscan_free(&fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_style),
		cmocka_unit_test(test_at_and_range),
		cmocka_unit_test(test_syscalls_and_macros),
		cmocka_unit_test(test_preprocessor),
		cmocka_unit_test(test_declarations_are_not_functions),
		cmocka_unit_test(test_hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
