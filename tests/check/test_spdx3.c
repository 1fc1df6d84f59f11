/* Unit tests of the SPDX 3.0 JSON-LD reader (check/inputs/spdx3.h): the kernel generator's
 * three documents and the Yocto-shaped ones of ../shared/schema/spdx3 (skipped when absent),
 * both @context forms, elements spread over documents, merged files, the ${BP} prefix, the
 * kernel configuration, the bound element, and hostile documents. */
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

#include "check/emit/spdx3_vex.h"
#include "check/inputs/spdx3.h"
#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

#define CTX "\"https://spdx.org/rdf/3.0.1/spdx-context.jsonld\""

static const char *shared(void)
{
	const char *s = getenv("KCVE_SHARED");
	static char path[4096];
	if (!s)
		return NULL;
	snprintf(path, sizeof path, "%s/schema/spdx3", s);
	struct stat st;
	return stat(path, &st) == 0 ? path : NULL;
}

static int add(struct ck_spdx3 *s, const char *text, struct kcve_err *e)
{
	return ck_spdx3_add_text(s, text, strlen(text), "doc.json", e);
}

/* Read the documents of texts[] (NULL-terminated); asserts success. */
static void read_all(struct ck_spdx3 *s, const char *const *texts)
{
	struct kcve_err e = {0};
	ck_spdx3_init(s);
	for (size_t i = 0; texts[i]; i++)
		assert_int_equal(add(s, texts[i], &e), 0);
	assert_int_equal(ck_spdx3_finish(s, &e), 0);
}

static void read_shared(struct ck_spdx3 *s, const char *dir, const char *const *names)
{
	struct kcve_err e = {0};
	ck_spdx3_init(s);
	char path[4096];
	for (size_t i = 0; names[i]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		int rc = ck_spdx3_add_file(s, path, &e);
		if (rc)
			fail_msg("%s: %s", path, e.msg);
	}
	assert_int_equal(ck_spdx3_finish(s, &e), 0);
}

static void test_kernel_generator(void **state)
{
	(void)state;
	const char *dir = shared();
	if (!dir)
		skip();
	char d[4200];
	snprintf(d, sizeof d, "%s/kernelsbom-tng", dir);
	struct ck_spdx3 s;
	/* in any order: the element of sbom-output refers to nothing of sbom-source */
	read_shared(&s, d, (const char *const[]){"target-sbom-output.spdx.json",
		    "target-sbom-build.spdx.json", "target-sbom-source.spdx.json", NULL});
	/* the compiled files are exactly the generator's own list */
	char path[4300];
	snprintf(path, sizeof path, "%s/target-sbom.used-files.txt", d);
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(read_file(path, &sb), 0);
	size_t n = 0;
	for (char *line = strtok(sb.buf, "\n"); line; line = strtok(NULL, "\n")) {
		assert_true(ck_spdx3_compiled(&s, line));
		n++;
	}
	sb_release(&sb);
	assert_int_equal(n, 4);
	assert_int_equal(s.nfiles, n);
	assert_true(s.have_files);
	assert_false(ck_spdx3_compiled(&s, "$(src_tree)"));
	assert_false(ck_spdx3_compiled(&s, "init/main.o"));
	/* the generator's list comes from the build's commands, headers included: a header
	 * absent from it is not compiled, like a .c file */
	assert_false(s.debug_files);
	const char *why = NULL;
	assert_int_equal(ck_spdx3_file_state(&s, "include/linux/kernel.h", &why), 0);
	assert_string_equal(why, "not among the SBOM's compiled sources");
	assert_int_equal(ck_spdx3_file_state(&s, "init/main.c", &why), 1);
	assert_int_equal(ck_spdx3_file_state(&s, "init/absent.c", NULL), 0);
	assert_null(s.config);
	assert_null(s.kversion);
	assert_string_equal(s.producer, "the kernel's SBOM generator");
	/* bound to the image's package, its compact id "o:6" expanded */
	assert_string_equal(s.element, "urn:spdx.dev:78b8dda0-35a0-5150-aa95-a3f3ef95de52/output/6");
	assert_string_equal(s.element_name, "Linux Kernel (bzImage)");
	char line[160];
	ck_spdx3_summary(&s, line, sizeof line);
	assert_string_equal(line, "SBOM: 4 compiled files, no config, kernel unknown");
	ck_spdx3_release(&s);
	/* sbom-output alone lists no source */
	read_shared(&s, d, (const char *const[]){"target-sbom-output.spdx.json", NULL});
	assert_false(s.have_files);
	assert_int_equal(s.nfiles, 0);
	assert_false(ck_spdx3_compiled(&s, "init/main.c"));
	ck_spdx3_release(&s);
}

static void test_yocto(void **state)
{
	(void)state;
	const char *dir = shared();
	if (!dir)
		skip();
	char d[4200];
	snprintf(d, sizeof d, "%s/synthetic-yocto", dir);
	struct ck_spdx3 s;
	read_shared(&s, d, (const char *const[]){"build-linux-yocto.spdx.json",
		    "static-linux-yocto.spdx.json", NULL});
	const char *want[] = {"Makefile", "arch/x86/kernel/setup.c", "drivers/net/Kconfig",
			      "drivers/net/loopback.c", "include/linux/kernel.h", "kernel/fork.c"};
	assert_int_equal(s.nfiles, 6);
	for (size_t i = 0; i < 6; i++)
		assert_string_equal(s.files[i], want[i]);
	assert_false(ck_spdx3_compiled(&s, "net/bluetooth/hci_core.c"));
	assert_false(ck_spdx3_compiled(&s, "linux-yocto-6.12.27+git/kernel/fork.c"));
	/* a list from debug information: an absent header cannot be ruled out, a .c file can */
	assert_true(s.debug_files);
	const char *why = NULL;
	assert_int_equal(ck_spdx3_file_state(&s, "include/linux/kernel.h", &why), 1);
	assert_int_equal(ck_spdx3_file_state(&s, "include/linux/skbuff.h", &why), -1);
	assert_non_null(strstr(why, "debug information"));
	assert_int_equal(ck_spdx3_file_state(&s, "net/bluetooth/hci_core.c", &why), 0);
	assert_int_equal(ck_spdx3_file_state(&s, "net/bluetooth/hci_core.hh", NULL), 0);
	assert_int_equal(ck_spdx3_file_state(&s, ".h", NULL), 0);
	assert_int_equal(s.nconfig, 3);
	assert_string_equal(s.config, "CONFIG_NET=y\nCONFIG_BT=m\nCONFIG_LOCALVERSION=\"\"\n");
	assert_string_equal(s.kversion, "6.12.27+git");
	assert_string_equal(s.producer, "Yocto/OpenEmbedded");
	assert_non_null(strstr(s.element, "/recipe/linux-yocto"));
	char line[160];
	ck_spdx3_summary(&s, line, sizeof line);
	assert_string_equal(line, "SBOM: 6 compiled files, config 3 symbols, kernel 6.12.27+git");
	ck_spdx3_release(&s);
	/* the build document alone: the version from ${BP}, no package to bind */
	read_shared(&s, d, (const char *const[]){"build-linux-yocto.spdx.json", NULL});
	assert_int_equal(s.nfiles, 6);
	assert_string_equal(s.kversion, "6.12.27+git");
	assert_null(s.element);
	ck_spdx3_release(&s);
}

/* The array @context with short prefixes; references across documents; an element in two
 * documents read once; a file listed twice under two ids counted once. */
static const char *doc_a =
	"{\"@context\":[" CTX ",{\"s\":\"urn:x/source/\",\"o\":\"urn:x/output/\"}],\"@graph\":["
	"{\"type\":\"software_File\",\"spdxId\":\"s:1\",\"name\":\"init/main.c\","
	" \"software_primaryPurpose\":\"source\"},"
	"{\"type\":\"software_File\",\"spdxId\":\"s:2\",\"name\":\"./init/main.c\","
	" \"software_primaryPurpose\":\"source\"},"
	"{\"type\":\"software_File\",\"spdxId\":\"s:3\",\"name\":\"include/linux/sched.h\","
	" \"software_primaryPurpose\":\"source\"},"
	"{\"type\":\"software_File\",\"spdxId\":\"s:4\",\"name\":\"init/main.o\","
	" \"software_primaryPurpose\":\"other\"},"
	"{\"type\":\"software_File\",\"spdxId\":\"s:5\",\"name\":\"$(src_tree)\","
	" \"software_fileKind\":\"directory\",\"software_primaryPurpose\":\"source\"},"
	"{\"type\":\"software_File\",\"spdxId\":\"s:6\",\"name\":\"../etc/passwd.c\","
	" \"software_primaryPurpose\":\"source\"},"
	"{\"type\":\"software_File\",\"spdxId\":\"s:7\",\"name\":\"/abs/x.c\","
	" \"software_primaryPurpose\":\"source\"}]}";
static const char *doc_b =
	"{\"@context\":[" CTX ",{\"t\":\"urn:x/source/\",\"o\":\"urn:x/output/\"}],\"@graph\":["
	"{\"type\":\"software_File\",\"spdxId\":\"t:1\",\"name\":\"init/main.c\","
	" \"software_primaryPurpose\":\"source\"},"
	"{\"type\":\"software_File\",\"spdxId\":\"urn:x/source/8\",\"name\":\"kernel/fork.c\","
	" \"software_primaryPurpose\":\"https://spdx.org/rdf/3.0.1/terms/Software/SoftwarePurpose/source\"},"
	"{\"type\":\"software_Package\",\"spdxId\":\"o:1\",\"name\":\"Linux Kernel (Image)\","
	" \"software_packageVersion\":\"6.12.27\"}]}";

static void test_context_forms(void **state)
{
	(void)state;
	struct ck_spdx3 s;
	read_all(&s, (const char *const[]){doc_a, doc_b, NULL});
	assert_int_equal(s.nfiles, 3);
	assert_string_equal(s.files[0], "include/linux/sched.h");
	assert_string_equal(s.files[1], "init/main.c");
	assert_string_equal(s.files[2], "kernel/fork.c");
	assert_string_equal(s.element, "urn:x/output/1");
	assert_string_equal(s.kversion, "6.12.27");
	assert_string_equal(s.producer, "SPDX 3");
	assert_false(s.debug_files); /* not Yocto's shape: today's rule, headers included */
	assert_int_equal(ck_spdx3_file_state(&s, "include/linux/fs.h", NULL), 0);
	ck_spdx3_release(&s);
}


/* A Yocto build document: sources of the kernel recipe under ${BP}, one merged by content with
 * its alias, a dependency's source under another prefix, a download element. */
#define Y "http://spdx.org/spdxdocs/linux-yocto-1/h/"
static const char *yocto_doc =
	"{\"@context\":" CTX ",\"@graph\":["
	"{\"type\":\"build_Build\",\"spdxId\":\"" Y "build/recipe\",\"name\":\"linux-yocto:do_create_spdx:recipe\","
	" \"build_buildType\":\"http://openembedded.org/bitbake/do_create_spdx/recipe\"},"
	"{\"type\":\"build_Build\",\"spdxId\":\"" Y "build/other\",\"name\":\"busybox:do_create_spdx:recipe\","
	" \"build_buildType\":\"http://openembedded.org/bitbake/do_create_spdx/recipe\"},"
	"{\"type\":\"LifecycleScopedRelationship\",\"spdxId\":\"" Y "rel/1\",\"from\":\"" Y "build/recipe\","
	" \"relationshipType\":\"hasInput\",\"scope\":\"build\",\"to\":[\"" Y "dl\",\"" Y "f/1\",\"" Y "f/2\","
	" \"" Y "f/3\",\"" Y "f/4\",\"" Y "missing\"]},"
	"{\"type\":\"LifecycleScopedRelationship\",\"spdxId\":\"" Y "rel/2\",\"from\":\"" Y "build/other\","
	" \"relationshipType\":\"hasInput\",\"scope\":\"build\",\"to\":[\"" Y "f/5\"]},"
	"{\"type\":\"software_Package\",\"spdxId\":\"" Y "dl\",\"name\":\"linux-yocto.git\"},"
	"{\"type\":\"software_File\",\"spdxId\":\"" Y "f/1\",\"name\":\"linux-yocto-6.6.21+git/fs/ext4/inode.c\","
	" \"software_primaryPurpose\":\"source\"},"
	"{\"type\":\"software_File\",\"spdxId\":\"" Y "f/2\",\"name\":\"linux-yocto-6.6.21+git/fs/empty.c\","
	" \"software_primaryPurpose\":\"source\",\"extension\":[{\"type\":\"https://rdf.openembedded.org/spdx/3.0/file-name-alias\","
	" \"https://rdf.openembedded.org/spdx/3.0/filename-alias\":[\"linux-yocto-6.6.21+git/fs/also-empty.c\"]}]},"
	"{\"type\":\"software_File\",\"spdxId\":\"" Y "f/3\",\"name\":\"glibc-2.39/string/strlen.c\","
	" \"software_primaryPurpose\":\"source\"},"
	"{\"type\":\"software_File\",\"spdxId\":\"" Y "f/4\",\"name\":\"linux-yocto-6.6.21+git/Kbuild\","
	" \"software_primaryPurpose\":\"source\"},"
	"{\"type\":\"software_File\",\"spdxId\":\"" Y "f/5\",\"name\":\"busybox-1.36/init/main.c\","
	" \"software_primaryPurpose\":\"source\"},"
	"{\"type\":\"software_File\",\"spdxId\":\"" Y "f/6\",\"name\":\"linux-yocto-6.6.21+git/not/linked.c\","
	" \"software_primaryPurpose\":\"source\"}]}";

static void test_yocto_shapes(void **state)
{
	(void)state;
	struct ck_spdx3 s;
	read_all(&s, (const char *const[]){yocto_doc, NULL});
	assert_string_equal(s.producer, "Yocto/OpenEmbedded");
	assert_int_equal(s.nfiles, 4);
	assert_string_equal(s.files[0], "Kbuild");
	assert_string_equal(s.files[1], "fs/also-empty.c"); /* the alias of a merged file */
	assert_string_equal(s.files[2], "fs/empty.c");
	assert_string_equal(s.files[3], "fs/ext4/inode.c");
	assert_false(ck_spdx3_compiled(&s, "string/strlen.c")); /* glibc's, through debug info */
	assert_false(ck_spdx3_compiled(&s, "init/main.c"));     /* busybox's */
	assert_false(ck_spdx3_compiled(&s, "not/linked.c"));    /* no hasInput links it */
	assert_true(s.debug_files); /* Yocto's list: from DWARF, headers absent are unknown */
	assert_int_equal(ck_spdx3_file_state(&s, "include/linux/fs.h", NULL), -1);
	assert_int_equal(ck_spdx3_file_state(&s, "fs/ext4/inode.c", NULL), 1);
	assert_int_equal(ck_spdx3_file_state(&s, "not/linked.c", NULL), 0);
	assert_string_equal(s.kversion, "6.6.21+git");
	assert_null(s.config);
	ck_spdx3_release(&s);
}

/* Every source file of the tree listed (.c files of several architectures): not used. */
static void test_all_sources_listed(void **state)
{
	(void)state;
	struct ck_spdx3 s;
	read_all(&s, (const char *const[]){
		"{\"@context\":" CTX ",\"@graph\":["
		"{\"type\":\"software_File\",\"spdxId\":\"urn:a\",\"name\":\"arch/x86/kernel/setup.c\","
		" \"software_primaryPurpose\":\"source\"},"
		"{\"type\":\"software_File\",\"spdxId\":\"urn:b\",\"name\":\"arch/arm64/kernel/setup.c\","
		" \"software_primaryPurpose\":\"source\"}]}", NULL});
	assert_false(s.have_files);
	assert_int_equal(s.nfiles, 0);
	assert_non_null(strstr(s.warning, "several architectures"));
	ck_spdx3_release(&s);
	/* one architecture (headers of another do not count) */
	read_all(&s, (const char *const[]){
		"{\"@context\":" CTX ",\"@graph\":["
		"{\"type\":\"software_File\",\"spdxId\":\"urn:a\",\"name\":\"arch/x86/kernel/setup.c\","
		" \"software_primaryPurpose\":\"source\"},"
		"{\"type\":\"software_File\",\"spdxId\":\"urn:b\",\"name\":\"arch/arm64/include/asm/x.h\","
		" \"software_primaryPurpose\":\"source\"}]}", NULL});
	assert_true(s.have_files);
	assert_int_equal(s.nfiles, 2);
	assert_string_equal(s.warning, "");
	ck_spdx3_release(&s);
}

/* The kernel configuration written back as .config lines; the summary's thousands. */
static void test_config_and_summary(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "{\"@context\":" CTX ",\"@graph\":[{\"type\":\"build_Build\",\"spdxId\":\"urn:k\","
		"\"build_buildType\":\"https://openembedded.org/kernel-configuration\",\"build_parameter\":["
		"{\"type\":\"DictionaryEntry\",\"key\":\"CONFIG_HZ\",\"value\":\"250\"},"
		"{\"type\":\"DictionaryEntry\",\"key\":\"CONFIG_PHYSICAL_START\",\"value\":\"0x1000000\"},"
		"{\"type\":\"DictionaryEntry\",\"key\":\"CONFIG_CMDLINE\",\"value\":\"a \\\"b\\\" c\\\\\"},"
		"{\"type\":\"DictionaryEntry\",\"key\":\"CONFIG_HZ\",\"value\":\"1000\"},"
		"{\"type\":\"DictionaryEntry\",\"key\":\"CONFIG_EMPTY\"}]}");
	for (int i = 0; i < 2310; i++)
		sb_addf(&sb, ",{\"type\":\"software_File\",\"spdxId\":\"urn:f%d\",\"name\":\"d/f%d.c\","
			"\"software_primaryPurpose\":\"source\"}", i, i);
	sb_adds(&sb, ",{\"type\":\"software_Package\",\"spdxId\":\"urn:p\",\"name\":\"linux-yocto\","
		"\"software_packageVersion\":\"6.12.27\"}]}");
	struct ck_spdx3 s;
	read_all(&s, (const char *const[]){sb.buf, NULL});
	sb_release(&sb);
	assert_string_equal(s.config, "CONFIG_HZ=250\nCONFIG_PHYSICAL_START=0x1000000\n"
				      "CONFIG_CMDLINE=\"a \\\"b\\\" c\\\\\"\nCONFIG_EMPTY=\"\"\n");
	assert_int_equal(s.nconfig, 4);
	assert_int_equal(s.config_len, strlen(s.config));
	assert_true(ck_spdx3_compiled(&s, "d/f2309.c"));
	char line[160];
	ck_spdx3_summary(&s, line, sizeof line);
	assert_string_equal(line, "SBOM: 2,310 compiled files, config 4 symbols, kernel 6.12.27");
	ck_spdx3_release(&s);
}

static void expect_error(const char *text, int code, const char *needle)
{
	struct ck_spdx3 s;
	struct kcve_err e = {0};
	ck_spdx3_init(&s);
	int rc = add(&s, text, &e);
	if (rc == 0)
		rc = ck_spdx3_finish(&s, &e);
	if (rc != code || !strstr(e.msg, needle))
		fail_msg("expected %d with '%s', got %d: %s", code, needle, rc, e.msg);
	assert_null(strchr(e.msg, '\n'));
	ck_spdx3_release(&s);
}

static void test_hostile(void **state)
{
	(void)state;
	expect_error("{\"@context\":\"https://example.org/ctx\",\"@graph\":[]}", KCVE_E_PARSE,
		     "not SPDX 3.0's");
	expect_error("{\"@context\":[{\"s\":\"urn:x/\"}],\"@graph\":[]}", KCVE_E_PARSE,
		     "does not include the SPDX 3.0 context");
	expect_error("{\"@context\":[" CTX ",{\"s\":{\"@id\":\"urn:x\"}}],\"@graph\":[]}",
		     KCVE_E_PARSE, "not a plain IRI");
	expect_error("{\"@context\":7}", KCVE_E_PARSE, "neither the SPDX 3.0 context");
	expect_error("{\"spdxVersion\":\"SPDX-2.3\"}", KCVE_E_PARSE, "no @context");
	expect_error("{\"@context\":" CTX ",\"@graph\":{}}", KCVE_E_PARSE, "not an array");
	expect_error("{\"@context\":" CTX ",\"@graph\":[1]}", KCVE_E_PARSE, "not an object");
	expect_error("{\"@context\":" CTX ",\"@graph\":[", KCVE_E_PARSE, "cannot parse");
	expect_error("{\"@context\":" CTX ",\"@graph\":[{\"type\":\"build_Build\",\"spdxId\":\"urn:k\","
		     "\"build_buildType\":\"https://openembedded.org/kernel-configuration\","
		     "\"build_parameter\":[{\"key\":\"HZ\",\"value\":\"1\"}]}]}",
		     KCVE_E_PARSE, "not a CONFIG_ symbol");
	expect_error("{\"@context\":" CTX ",\"@graph\":[{\"type\":\"build_Build\",\"spdxId\":\"urn:k\","
		     "\"build_buildType\":\"https://openembedded.org/kernel-configuration\","
		     "\"build_parameter\":[{\"key\":\"CONFIG_X\",\"value\":\"a\\nCONFIG_Y=y\"}]}]}",
		     KCVE_E_PARSE, "control character");
	expect_error("{\"@context\":" CTX ",\"@graph\":["
		     "{\"type\":\"build_Build\",\"spdxId\":\"urn:k\",\"build_buildType\":\"https://openembedded.org/kernel-configuration\"},"
		     "{\"type\":\"build_Build\",\"spdxId\":\"urn:l\",\"build_buildType\":\"https://openembedded.org/kernel-configuration\"}]}",
		     KCVE_E_PARSE, "2 kernel configurations");
	/* nesting beyond the cap, refused before jansson builds it */
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "{\"@context\":" CTX ",\"@graph\":[{\"x\":");
	for (int i = 0; i < 100; i++)
		sb_addc(&sb, '[');
	for (int i = 0; i < 100; i++)
		sb_addc(&sb, ']');
	sb_adds(&sb, "}]}");
	expect_error(sb.buf, KCVE_E_PARSE, "deeper than 64");
	sb_release(&sb);
	/* brackets inside strings do not count */
	sb_adds(&sb, "{\"@context\":" CTX ",\"@graph\":[{\"type\":\"software_File\",\"spdxId\":\"urn:q\",\"name\":\"");
	for (int i = 0; i < 100; i++)
		sb_adds(&sb, "[\\\"");
	sb_adds(&sb, ".c\"}]}");
	struct ck_spdx3 s;
	read_all(&s, (const char *const[]){sb.buf, NULL});
	sb_release(&sb);
	ck_spdx3_release(&s);
	/* no document at all */
	struct kcve_err e = {0};
	ck_spdx3_init(&s);
	assert_int_equal(ck_spdx3_finish(&s, &e), KCVE_E_PARSE);
	ck_spdx3_release(&s);
	/* files that are not regular: the bounded reader's errors */
	ck_spdx3_init(&s);
	assert_int_equal(ck_spdx3_add_file(&s, "/", &e), KCVE_E_IO);
	assert_non_null(strstr(e.msg, "cannot read the SBOM /"));
	assert_int_equal(ck_spdx3_add_file(&s, "/nonexistent/sbom.json", &e), KCVE_E_NOTFOUND);
	ck_spdx3_release(&s);
}

/* The SPDX 3 VEX writer on an OpenVEX document: one class and relationshipType per status, the
 * justification mapped (vulnerableCodeNotPresent when not_affected names none), withdrawn
 * statements, statements kcve cannot state skipped, a bound element imported. */
static const json_t *find_vex(const json_t *doc, const char *cve)
{
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(doc, "@graph"), i, e) {
		const char *from = json_string_value(json_object_get(e, "from"));
		const char *t = json_string_value(json_object_get(e, "type"));
		size_t fl = from ? strlen(from) : 0, cl = strlen(cve);
		if (t && !strncmp(t, "security_Vex", 12) && fl > cl && !strcmp(from + fl - cl, cve))
			return e;
	}
	return NULL;
}

static const char *member(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static void test_writer(void **state)
{
	(void)state;
	json_error_t je;
	json_t *ov = json_loads(
		"{\"@context\":\"https://openvex.dev/ns/v0.2.0\",\"@id\":\"urn:uuid:0b0d4a3c-1111-5222-8333-444455556666\","
		"\"author\":\"A <a@b>\",\"version\":2,\"timestamp\":\"2026-01-01T00:00:00Z\","
		"\"last_updated\":\"2026-02-01T00:00:00Z\",\"statements\":["
		"{\"vulnerability\":{\"name\":\"CVE-2024-0001\"},\"products\":[{\"@id\":\"pkg:generic/linux-kernel@6.1.90\","
		" \"identifiers\":{\"purl\":\"pkg:generic/linux-kernel@6.1.90\",\"@cpe23\":\"cpe:2.3:o:linux:linux_kernel:6.1.90:*:*:*:*:*:*:*\"}}],"
		" \"status\":\"affected\",\"status_notes\":\"in range\",\"action_statement\":\"update to 6.1.91 or later\","
		" \"timestamp\":\"2026-02-01T00:00:00Z\"},"
		"{\"vulnerability\":{\"name\":\"CVE-2024-0002\"},\"products\":[{\"@id\":\"pkg:generic/linux-kernel@6.1.90\"}],"
		" \"status\":\"not_affected\",\"status_notes\":\"drivers/x.c not compiled\",\"impact_statement\":\"drivers/x.c not compiled\"},"
		"{\"vulnerability\":{\"name\":\"CVE-2024-0003\"},\"products\":[{\"@id\":\"pkg:generic/linux-kernel@6.1.90\"}],"
		" \"status\":\"not_affected\",\"justification\":\"inline_mitigations_already_exist\",\"status_notes\":\"install x /bin/false\"},"
		"{\"vulnerability\":{\"name\":\"CVE-2024-0004\"},\"products\":[{\"@id\":\"pkg:generic/linux-kernel@6.1.90\"}],"
		" \"status\":\"fixed\"},"
		"{\"vulnerability\":{\"name\":\"CVE-2024-0005\"},\"products\":[{\"@id\":\"pkg:generic/linux-kernel@6.1.90\"}],"
		" \"status\":\"under_investigation\"},"
		"{\"vulnerability\":{\"name\":\"CVE-2024-0006\"},\"products\":[{\"@id\":\"pkg:generic/linux-kernel@6.1.90\"}],"
		" \"status\":\"not_affected\",\"status_notes\":\"withdrawn: rejected (since old)\","
		" \"impact_statement\":\"withdrawn: rejected (since old)\",\"timestamp\":\"2026-02-01T00:00:00Z\"},"
		"{\"vulnerability\":{\"name\":\"not a CVE\\n\"},\"products\":[{\"@id\":\"p\"}],\"status\":\"affected\"},"
		"{\"vulnerability\":{\"name\":\"CVE-2024-0007\"},\"products\":[{\"@id\":\"p\"}],\"status\":\"bogus\"},"
		"{\"vulnerability\":{\"name\":\"CVE-2024-0008\"},\"status\":\"fixed\"}]}", 0, &je);
	assert_non_null(ov);
	json_t *doc = ck_spdx3_from_openvex(ov, NULL);
	assert_string_equal(member(doc, "@context"), "https://spdx.org/rdf/3.0.1/spdx-context.jsonld");
	static const char *const want[][3] = {
		{"CVE-2024-0001", "security_VexAffectedVulnAssessmentRelationship", "affects"},
		{"CVE-2024-0002", "security_VexNotAffectedVulnAssessmentRelationship", "doesNotAffect"},
		{"CVE-2024-0003", "security_VexNotAffectedVulnAssessmentRelationship", "doesNotAffect"},
		{"CVE-2024-0004", "security_VexFixedVulnAssessmentRelationship", "fixedIn"},
		{"CVE-2024-0005", "security_VexUnderInvestigationVulnAssessmentRelationship",
		 "underInvestigationFor"},
		{"CVE-2024-0006", "security_VexNotAffectedVulnAssessmentRelationship", "doesNotAffect"},
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const json_t *v = find_vex(doc, want[i][0]);
		if (!v)
			fail_msg("no statement for %s", want[i][0]);
		assert_string_equal(member(v, "type"), want[i][1]);
		assert_string_equal(member(v, "relationshipType"), want[i][2]);
		assert_string_equal(member(v, "security_vexVersion"), "2");
		assert_non_null(member(v, "security_publishedTime"));
		assert_string_equal(json_string_value(json_array_get(json_object_get(v, "to"), 0)),
				    "https://spdx.org/spdxdocs/kcve-0b0d4a3c-1111-5222-8333-444455556666/package/1");
	}
	assert_null(find_vex(doc, "CVE-2024-0007"));
	assert_null(find_vex(doc, "CVE-2024-0008"));
	assert_string_equal(member(find_vex(doc, "CVE-2024-0001"), "security_actionStatement"),
			    "update to 6.1.91 or later");
	const json_t *na = find_vex(doc, "CVE-2024-0002");
	assert_string_equal(member(na, "security_justificationType"), "vulnerableCodeNotPresent");
	assert_string_equal(member(na, "security_impactStatement"), "drivers/x.c not compiled");
	na = find_vex(doc, "CVE-2024-0003");
	assert_string_equal(member(na, "security_justificationType"), "inlineMitigationsAlreadyExist");
	assert_string_equal(member(na, "security_impactStatement"), "install x /bin/false");
	na = find_vex(doc, "CVE-2024-0006");
	assert_null(member(na, "security_justificationType"));
	assert_string_equal(member(na, "security_withdrawnTime"), "2026-02-01T00:00:00Z");
	assert_string_equal(member(find_vex(doc, "CVE-2024-0002"), "security_publishedTime"),
			    "2026-01-01T00:00:00Z");
	/* one package for the one purl, one vulnerability per CVE, created = last_updated */
	size_t npkg = 0, nvuln = 0, i;
	json_t *e;
	json_array_foreach(json_object_get(doc, "@graph"), i, e) {
		npkg += !strcmp(member(e, "type"), "software_Package");
		nvuln += !strcmp(member(e, "type"), "security_Vulnerability");
		if (!strcmp(member(e, "type"), "CreationInfo"))
			assert_string_equal(member(e, "created"), "2026-02-01T00:00:00Z");
	}
	assert_int_equal(npkg, 1);
	assert_int_equal(nvuln, 6);
	json_decref(doc);
	/* bound: no package of our own, the element imported */
	doc = ck_spdx3_from_openvex(ov, "urn:x/output/6");
	npkg = 0;
	bool imported = false;
	json_array_foreach(json_object_get(doc, "@graph"), i, e) {
		npkg += !strcmp(member(e, "type"), "software_Package");
		if (!strcmp(member(e, "type"), "SpdxDocument"))
			imported = !strcmp(member(json_array_get(json_object_get(e, "import"), 0),
						  "externalSpdxId"), "urn:x/output/6");
	}
	assert_int_equal(npkg, 0);
	assert_true(imported);
	assert_string_equal(json_string_value(json_array_get(json_object_get(
		find_vex(doc, "CVE-2024-0001"), "to"), 0)), "urn:x/output/6");
	json_decref(doc);
	json_decref(ov);
}

/* An image SBOM (one merged graph): the kernel's headers and firmware recipes and a tool are
 * no kernel; two kernels, or recipes without one, are an error rather than a wrong list. */
static char *image_doc(const char *const *recipes)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "{\"@context\":" CTX ",\"@graph\":[");
	for (size_t i = 0; recipes[i]; i++) {
		const char *r = recipes[i];
		sb_addf(&sb, "%s{\"type\":\"build_Build\",\"spdxId\":\"urn:b/%s\",\"name\":\"%s:do_create_spdx:recipe\"},"
			"{\"type\":\"LifecycleScopedRelationship\",\"spdxId\":\"urn:r/%s\",\"from\":\"urn:b/%s\","
			"\"relationshipType\":\"hasInput\",\"scope\":\"build\",\"to\":[\"urn:f/%s\"]},"
			"{\"type\":\"software_File\",\"spdxId\":\"urn:f/%s\",\"name\":\"%s-1.0/%s/x.c\","
			"\"software_primaryPurpose\":\"source\"}", i ? "," : "", r, r, r, r, r, r, r, r);
	}
	sb_adds(&sb, "]}");
	return sb_detach(&sb);
}

static void test_image_sbom(void **state)
{
	(void)state;
	char *doc = image_doc((const char *const[]){"linux-libc-headers", "busybox", "linux-yocto",
						    "linux-firmware", "linux-dummy-native", NULL});
	struct ck_spdx3 s;
	read_all(&s, (const char *const[]){doc, NULL});
	free(doc);
	assert_int_equal(s.nfiles, 1);
	assert_string_equal(s.files[0], "linux-yocto/x.c");
	assert_string_equal(s.kversion, "1.0");
	ck_spdx3_release(&s);
	doc = image_doc((const char *const[]){"linux-yocto", "linux-imx", NULL});
	expect_error(doc, KCVE_E_PARSE, "several kernel recipes (linux-yocto, linux-imx)");
	free(doc);
	doc = image_doc((const char *const[]){"busybox", "glibc", NULL});
	expect_error(doc, KCVE_E_PARSE, "2 recipes and none is a kernel's");
	free(doc);
	doc = image_doc((const char *const[]){"kernel-custom", NULL}); /* the only recipe */
	read_all(&s, (const char *const[]){doc, NULL});
	free(doc);
	assert_int_equal(s.nfiles, 1);
	ck_spdx3_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_generator),
		cmocka_unit_test(test_yocto),
		cmocka_unit_test(test_context_forms),
		cmocka_unit_test(test_yocto_shapes),
		cmocka_unit_test(test_all_sources_listed),
		cmocka_unit_test(test_config_and_summary),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_writer),
		cmocka_unit_test(test_image_sbom),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
