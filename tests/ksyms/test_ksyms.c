/* Unit tests of the kernel symbol sets (ksyms/ksyms.h): System.map/kallsyms text, ELF symbol
 * tables through libelf (this test program itself is the ELF file: it has a symbol table and
 * knows its own function names), and the three sources' directory layouts and refusals. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ksyms/ksyms.h"

static char tmp[256];

static void put(const char *rel, const char *text)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", tmp, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Copy this program (an ELF file with a symbol table) to rel below tmp. */
static void put_self(const char *rel)
{
	char p[512], buf[65536];
	snprintf(p, sizeof p, "%s/%s", tmp, rel);
	int in = open("/proc/self/exe", O_RDONLY), out = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(in >= 0 && out >= 0);
	for (ssize_t n; (n = read(in, buf, sizeof buf)) > 0;)
		assert_int_equal(write(out, buf, (size_t)n), n);
	close(in);
	close(out);
}

static void dir(const char *rel)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", tmp, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof tmp, "%s/kcve-ksyms-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(tmp));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp); /* test-only: a path this test made */
	return system(cmd) == 0 ? 0 : -1;
}

static void test_map_text(void **state)
{
	(void)state;
	const char map[] = "ffffffff81000000 T _text\n"
			   "ffffffff81001000 t helper.constprop.0\n"
			   "ffffffff81002000 T exported\r\n"
			   "0000000000000000 t modfn\t[mymod]\n"
			   "garbage line\n"
			   "zz T not_hex_address\n"
			   "ffffffff81003000 T\n"
			   "ffffffff81004000 W .hidden_dot\n"
			   "ffffffff81005000 T last_without_newline";
	struct ksyms k = {0};
	assert_int_equal(ksyms_parse_map(&k, map, sizeof map - 1), 6);
	assert_true(ksyms_has(&k, "_text"));
	assert_true(ksyms_has(&k, "helper")); /* clones count as the function */
	assert_false(ksyms_has(&k, "helper.constprop.0"));
	assert_true(ksyms_has(&k, "exported"));
	assert_true(ksyms_has(&k, "modfn"));
	assert_true(ksyms_has(&k, ".hidden_dot"));
	assert_true(ksyms_has(&k, "last_without_newline"));
	assert_false(ksyms_has(&k, "not_hex_address"));
	assert_false(ksyms_has(&k, "garbage"));
	assert_false(ksyms_has(&k, ""));
	ksyms_add(&k, "dup", 3);
	ksyms_add(&k, "dup", 3);
	assert_int_equal(strset_count(&k.names), 7);
	assert_false(k.lto);
	ksyms_add(&k, "f.llvm.1234", 11); /* clang's promoted local: built with LTO */
	assert_true(k.lto);
	assert_true(ksyms_has(&k, "f"));
	ksyms_free(&k);
}

static void test_elf_self(void **state)
{
	(void)state;
	struct ksyms k = {0};
	struct kcve_err err = {0};
	int fd = open("/proc/self/exe", O_RDONLY);
	assert_int_equal(ksyms_read_elf_fd(&k, fd, "self", &err), 0);
	close(fd);
	assert_true(ksyms_has(&k, "test_elf_self"));
	assert_true(ksyms_has(&k, "main"));
	assert_false(ksyms_has(&k, "printf")); /* undefined here: the C library's */
	ksyms_free(&k);
	put("text", "not an ELF file\n");
	char p[512];
	snprintf(p, sizeof p, "%s/text", tmp);
	fd = open(p, O_RDONLY);
	assert_int_equal(ksyms_read_elf_fd(&k, fd, "text", &err), -1);
	assert_int_equal(err.code, KCVE_E_PARSE);
	close(fd);
	ksyms_free(&k);
}

static void test_build_dir(void **state)
{
	(void)state;
	struct ksyms k;
	struct kcve_err err = {0};
	char p[512];
	dir("build");
	snprintf(p, sizeof p, "%s/build", tmp);
	assert_int_equal(ksyms_open_build(&k, p, &err), -1); /* no vmlinux */
	assert_int_equal(err.code, KCVE_E_NOTFOUND);
	ksyms_free(&k);
	put_self("build/vmlinux");
	dir("build/drivers");
	put_self("build/drivers/a.ko");
	put("build/modules.order", "drivers/a.ko\ndrivers/b.ko\n");
	assert_int_equal(ksyms_open_build(&k, p, &err), 0);
	assert_int_equal(k.cover, KSYMS_VMLINUX); /* b.ko missing: modules not covered */
	assert_int_equal(k.modules, 1);
	assert_true(ksyms_has(&k, "test_build_dir"));
	ksyms_free(&k);
	put_self("build/drivers/b.ko");
	char link[512];
	snprintf(link, sizeof link, "%s/build/drivers/c.ko", tmp);
	assert_int_equal(symlink("/proc/self/exe", link), 0); /* links are never followed */
	assert_int_equal(ksyms_open_build(&k, p, &err), 0);
	assert_int_equal(k.cover, KSYMS_VMLINUX | KSYMS_MODULES);
	assert_int_equal(k.modules, 2);
	assert_non_null(strstr(k.desc, "+ 2 modules"));
	ksyms_free(&k);
	assert_false(k.lto);
	put("build/.config", "# comment\nCONFIG_LTO_CLANG_THIN=y\n");
	ksyms_free(&k);
	assert_int_equal(ksyms_open_build(&k, p, &err), 0);
	assert_true(k.lto); /* link-time optimisation: absence proves nothing */
	ksyms_free(&k);
	put("build/drivers/d.ko.xz", "compressed");
	assert_int_equal(ksyms_open_build(&k, p, &err), 0);
	assert_int_equal(k.cover, KSYMS_VMLINUX); /* a module it cannot read */
	ksyms_free(&k);
}

static void test_system_map_and_running(void **state)
{
	(void)state;
	struct ksyms k;
	struct kcve_err err = {0};
	char p[512];
	dir("img");
	dir("img/boot");
	dir("img/lib");
	dir("img/lib/modules");
	dir("img/lib/modules/6.1.0-x");
	dir("img/proc");
	put("img/boot/System.map-6.1.0-x", "ffffffff81000000 T _text\nffffffff81000100 T builtin_fn\n");
	put_self("img/lib/modules/6.1.0-x/m.ko");
	put("img/lib/modules/6.1.0-x/modules.order", "kernel/m.ko\n");
	snprintf(p, sizeof p, "%s/img/boot/System.map-6.1.0-x", tmp);
	assert_int_equal(ksyms_open_system_map(&k, p, &err), 0);
	assert_int_equal(k.cover, KSYMS_VMLINUX | KSYMS_MODULES);
	assert_true(ksyms_has(&k, "builtin_fn"));
	assert_true(ksyms_has(&k, "test_system_map_and_running")); /* from m.ko */
	ksyms_free(&k);
	put("img/boot/System.map-placeholder",
	    "ffffffffffffffff B The real System.map is in the linux-image-<version>-dbg package\n");
	snprintf(p, sizeof p, "%s/img/boot/System.map-placeholder", tmp);
	assert_int_equal(ksyms_open_system_map(&k, p, &err), -1);
	assert_non_null(strstr(err.msg, "-dbg"));
	ksyms_free(&k);
	snprintf(p, sizeof p, "%s/img", tmp);
	assert_int_equal(ksyms_open_running(&k, p, "6.1.0-x", &err), -1); /* no proc/kallsyms */
	ksyms_free(&k);
	put("img/proc/kallsyms", "0000000000000000 T _text\n0000000000000000 t loaded_fn\t[mod]\n");
	assert_int_equal(ksyms_open_running(&k, p, "6.1.0-x", &err), 0);
	assert_true(ksyms_has(&k, "loaded_fn"));
	assert_true(ksyms_has(&k, "test_system_map_and_running"));
	assert_int_equal(k.cover, KSYMS_VMLINUX | KSYMS_MODULES);
	ksyms_free(&k);
	assert_int_equal(ksyms_open_running(&k, p, "../../etc", &err), 0); /* no such modules */
	assert_int_equal(k.cover, KSYMS_VMLINUX);
	ksyms_free(&k);
	/* hostile roots: a linked kallsyms is refused, a FIFO never blocks, a linked modules
	 * directory is not followed */
	char a[512], b[512];
	snprintf(a, sizeof a, "%s/img/proc/kallsyms", tmp);
	snprintf(b, sizeof b, "%s/img/boot/System.map-6.1.0-x", tmp);
	assert_int_equal(unlink(a), 0);
	assert_int_equal(symlink(b, a), 0);
	assert_int_equal(ksyms_open_running(&k, p, "6.1.0-x", &err), -1);
	ksyms_free(&k);
	assert_int_equal(unlink(a), 0);
	assert_int_equal(mkfifo(a, 0644), 0);
	assert_int_equal(ksyms_open_running(&k, p, "6.1.0-x", &err), -1);
	ksyms_free(&k);
	assert_int_equal(unlink(a), 0);
	put("img/proc/kallsyms", "0000000000000000 T _text\n");
	snprintf(a, sizeof a, "%s/img/lib/modules/6.1.0-y", tmp);
	snprintf(b, sizeof b, "%s/img/lib/modules/6.1.0-x", tmp);
	assert_int_equal(symlink(b, a), 0);
	assert_int_equal(ksyms_open_running(&k, p, "6.1.0-y", &err), 0);
	assert_int_equal(k.cover, KSYMS_VMLINUX);
	assert_false(ksyms_has(&k, "test_system_map_and_running"));
	ksyms_free(&k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_text),
		cmocka_unit_test(test_elf_self),
		cmocka_unit_test(test_build_dir),
		cmocka_unit_test(test_system_map_and_running),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
