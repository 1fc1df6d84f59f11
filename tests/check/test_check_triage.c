/* Unit tests of the triage readers and stages: the KEV catalogue, EPSS scores, modprobe rules,
 * the ranking rule and the modprobe mitigation stage. */
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

#include "check/inputs/epss.h"
#include "check/inputs/kev.h"
#include "check/inputs/modprobe.h"
#include "check/records/recset.h"
#include "check/stages/rank.h"
#include "check/stages/triage.h"
#include "check/verdict/check.h"
#include "core/cveid.h"
#include "core/fileio.h"
#include "core/xalloc.h"

#define KEV_ENTRY(id, vendor, product, ransom)                                                \
	"{\"cveID\":\"" id "\",\"vendorProject\":\"" vendor "\",\"product\":\"" product          \
	"\",\"vulnerabilityName\":\"n\",\"dateAdded\":\"2025-01-01\",\"shortDescription\":\"d\","  \
	"\"requiredAction\":\"a\",\"dueDate\":\"2025-02-01\",\"knownRansomwareCampaignUse\":\""   \
	ransom "\",\"notes\":\"\",\"cwes\":[\"CWE-416\"]}"
#define KEV_DOC(entries)                                                                      \
	"{\"title\":\"t\",\"catalogVersion\":\"2025.08.25\",\"dateReleased\":\"2025-08-25T17:04:19Z\"," \
	"\"count\":3,\"vulnerabilities\":[" entries "]}"

static int kev_text(struct ck_kev *k, const char *t, struct kcve_err *e)
{
	memset(e, 0, sizeof *e);
	return ck_kev_parse(k, t, strlen(t), "kev.json", e);
}

static void test_kev(void **state)
{
	(void)state;
	struct ck_kev k;
	struct kcve_err e;
	const char *doc = KEV_DOC(KEV_ENTRY("CVE-2024-53104", "Linux", "Kernel", "Unknown") ","
				  KEV_ENTRY("CVE-2024-1086", "Linux", "Kernel", "Known") ","
				  KEV_ENTRY("CVE-2025-48384", "Git", "Git", "Unknown") ","
				  KEV_ENTRY("CVE-2023-9", "X", "Linux Kernel", "Unknown"));
	/* CVE-2023-9 does not match the schema's pattern: the whole file is refused */
	assert_int_equal(kev_text(&k, doc, &e), KCVE_E_PARSE);
	assert_non_null(strstr(e.msg, "vulnerabilities[3].cveID"));
	doc = KEV_DOC(KEV_ENTRY("CVE-2024-53104", "Linux", "Kernel", "Unknown") ","
		      KEV_ENTRY("CVE-2024-1086", "linux", "kernel", "Known") ","
		      KEV_ENTRY("CVE-2025-48384", "Git", "Git", "Unknown") ","
		      KEV_ENTRY("CVE-2023-0001", "Some", "Linux Kernel", "Unknown") ","
		      KEV_ENTRY("CVE-2024-1086", "Linux", "Kernel", "Unknown"));
	assert_int_equal(kev_text(&k, doc, &e), 0);
	assert_int_equal(k.n, 4); /* the repeated id once */
	assert_int_equal(k.nkernel, 3);
	assert_string_equal(k.version, "2025.08.25");
	/* sorted by year then number: 1086 before 53104 */
	assert_string_equal(k.v[0].id, "CVE-2023-0001");
	assert_string_equal(k.v[1].id, "CVE-2024-1086");
	assert_string_equal(k.v[2].id, "CVE-2024-53104");
	const struct ck_kev_entry *x = ck_kev_find(&k, "CVE-2024-1086");
	assert_non_null(x);
	assert_true(x->ransomware && x->linux_kernel);
	assert_false(ck_kev_find(&k, "CVE-2025-48384")->linux_kernel);
	assert_null(ck_kev_find(&k, "CVE-2024-1087"));
	ck_kev_release(&k);

	/* the schema's required fields and types */
	const char *bad[] = {
		"[]", "{}", "not json",
		"{\"catalogVersion\":1,\"dateReleased\":\"x\",\"count\":0,\"vulnerabilities\":[]}",
		"{\"catalogVersion\":\"1\",\"dateReleased\":\"x\",\"count\":\"0\",\"vulnerabilities\":[]}",
		"{\"catalogVersion\":\"1\",\"dateReleased\":\"x\",\"count\":0,\"vulnerabilities\":{}}",
		KEV_DOC("1"),
		KEV_DOC("{\"cveID\":\"CVE-2024-1086\"}"),
		KEV_DOC("{\"cveID\":\"CVE-2024-1086\",\"vendorProject\":\"Linux\",\"product\":\"Kernel\","
			"\"vulnerabilityName\":\"n\",\"dateAdded\":\"2025-01-01\",\"shortDescription\":\"d\","
			"\"requiredAction\":\"a\",\"dueDate\":5}"),
		KEV_DOC("{\"cveID\":\"CVE-2024-1086\",\"vendorProject\":\"Linux\",\"product\":\"Kernel\","
			"\"vulnerabilityName\":\"n\",\"dateAdded\":\"2025-01-01\",\"shortDescription\":\"d\","
			"\"requiredAction\":\"a\",\"dueDate\":\"x\",\"cwes\":[1]}"),
		KEV_DOC("{\"cveID\":\"CVE-2024-1086\\n\",\"vendorProject\":\"Linux\"}"),
		"{\"catalogVersion\":\"1\",\"catalogVersion\":\"2\",\"dateReleased\":\"x\",\"count\":0,"
		"\"vulnerabilities\":[]}",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(kev_text(&k, bad[i], &e), KCVE_E_PARSE);
		assert_null(strchr(e.msg, '\n')); /* one line */
		assert_int_equal(k.n, 0);
	}
	/* an empty catalogue is valid */
	assert_int_equal(kev_text(&k, "{\"catalogVersion\":\"1\",\"dateReleased\":\"x\",\"count\":0,"
				      "\"vulnerabilities\":[]}", &e), 0);
	assert_int_equal(k.n, 0);
	assert_null(ck_kev_find(&k, "CVE-2024-1086"));
	ck_kev_release(&k);
}

static void test_cve_ids(void **state)
{
	(void)state;
	assert_true(cveid_valid_n("CVE-2024-1086", 13));
	assert_true(cveid_valid_n("CVE-2024-1234567890123456789", 28));
	assert_false(cveid_valid_n("CVE-2024-12345678901234567890", 29));
	assert_false(cveid_valid_n("CVE-2024-108", 12));
	assert_false(cveid_valid_n("CVE-20a4-1086", 13));
	assert_false(cveid_valid_n("cve-2024-1086", 13));
	assert_true(cveid_cmp("CVE-2024-9999", "CVE-2024-10000") < 0);
	assert_true(cveid_cmp("CVE-2023-99999", "CVE-2024-1000") < 0);
	assert_true(cveid_cmp("CVE-2024-1000", "garbage") < 0);
	assert_int_equal(cveid_cmp("CVE-2024-1000", "CVE-2024-1000"), 0);
}

static int epss_text(struct ck_epss *p, const char *t, struct kcve_err *e)
{
	memset(e, 0, sizeof *e);
	return ck_epss_parse(p, t, strlen(t), "epss.csv", e);
}

static void test_epss(void **state)
{
	(void)state;
	struct ck_epss p;
	struct kcve_err e;
	assert_int_equal(epss_text(&p, "#model_version:v2025.03.14,score_date:2025-08-25T12:55:00Z\r\n"
				       "cve,epss,percentile\r\nCVE-2024-53104,0.00585,0.6812\r\n"
				       "CVE-2024-1086,0.84,0.99\r\nCVE-1999-0001,1,0\n", &e), 0);
	assert_int_equal(p.n, 3);
	assert_string_equal(p.model, "model_version:v2025.03.14,score_date:2025-08-25T12:55:00Z");
	const struct ck_epss_entry *x = ck_epss_find(&p, "CVE-2024-1086");
	assert_non_null(x);
	assert_true(x->epss > 0.8399 && x->epss < 0.8401 && x->percentile > 0.989);
	assert_null(ck_epss_find(&p, "CVE-2024-1087"));
	assert_null(ck_epss_find(&p, "CVE-2024-10860000000000000000000000000"));
	ck_epss_release(&p);
	/* no comment line is fine; an empty file with only the header too */
	assert_int_equal(epss_text(&p, "cve,epss,percentile\n", &e), 0);
	assert_int_equal(p.n, 0);
	ck_epss_release(&p);
	const char *bad[] = {
		"", "#c\n", "cve,percentile,epss\nCVE-2024-1086,0.1,0.2\n",
		"cve,epss,percentile\nCVE-2024-1086,0.1\n",
		"cve,epss,percentile\nCVE-2024-1086,0.1,0.2,0.3\n",
		"cve,epss,percentile\nCVE-2024-1086,1.5,0.2\n",
		"cve,epss,percentile\nCVE-2024-1086,-0.1,0.2\n",
		"cve,epss,percentile\nCVE-2024-1086,nan,0.2\n",
		"cve,epss,percentile\nCVE-2024-1086,1e-3,0.2\n",
		"cve,epss,percentile\nCVE-2024-1086, 0.1,0.2\n",
		"cve,epss,percentile\nCVE-2024-1086,0.1,.\n",
		"cve,epss,percentile\nCVE-24-1086,0.1,0.2\n",
		"cve,epss,percentile\nCVE-2024-1086,0.1,0.2\n\nCVE-2024-1087,0.1,0.2\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(epss_text(&p, bad[i], &e), KCVE_E_PARSE);
		assert_null(strchr(e.msg, '\n'));
		assert_int_equal(p.n, 0);
	}
	/* the line number of a bad row */
	assert_int_equal(epss_text(&p, "#m\ncve,epss,percentile\nCVE-2024-1,0.1,0.2\n", &e),
			 KCVE_E_PARSE);
	assert_non_null(strstr(e.msg, "epss.csv:3:"));
	/* a NUL byte inside the text */
	static const char nul[] = "cve,epss,percentile\nCVE-2024-1086,0.1\0,0.2\n";
	memset(&e, 0, sizeof e);
	assert_int_equal(ck_epss_parse(&p, nul, sizeof nul - 1, "n", &e), KCVE_E_PARSE);
}

static void test_epss_load(void **state)
{
	(void)state;
	char dir[] = "/tmp/kcve-triage-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof path, "%s/e.csv", dir);
	const char *csv = "#m\ncve,epss,percentile\nCVE-2024-1086,0.5,0.9\n";
	assert_int_equal(atomic_write_file(path, csv, strlen(csv), 0644), 0);
	struct ck_epss p;
	struct kcve_err e = {0};
	assert_int_equal(ck_epss_load(&p, path, &e), 0);
	assert_int_equal(p.n, 1);
	ck_epss_release(&p);
	/* gzip: the same content */
	char cmd[600];
	snprintf(cmd, sizeof cmd, "gzip -c %s > %s.gz", path, path);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "%s.gz", path);
	assert_int_equal(ck_epss_load(&p, cmd, &e), 0);
	assert_int_equal(p.n, 1);
	ck_epss_release(&p);
	/* truncated gzip */
	struct stat st;
	assert_int_equal(stat(cmd, &st), 0);
	assert_int_equal(truncate(cmd, st.st_size - 6), 0);
	assert_int_equal(ck_epss_load(&p, cmd, &e), KCVE_E_PARSE);
	assert_non_null(strstr(e.msg, "truncated gzip"));
	/* a directory, a FIFO, a missing file */
	assert_int_equal(ck_epss_load(&p, dir, &e), KCVE_E_IO);
	snprintf(cmd, sizeof cmd, "%s/fifo", dir);
	assert_int_equal(mkfifo(cmd, 0600), 0);
	assert_int_equal(ck_epss_load(&p, cmd, &e), KCVE_E_IO);
	assert_non_null(strstr(e.msg, "regular file"));
	struct ck_kev k;
	assert_int_equal(ck_kev_load(&k, cmd, &e), KCVE_E_IO);
	snprintf(cmd, sizeof cmd, "%s/none", dir);
	assert_int_equal(ck_epss_load(&p, cmd, &e), KCVE_E_NOTFOUND);
	assert_int_equal(ck_kev_load(&k, "/dev/zero", &e), KCVE_E_IO);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static enum ck_mp_rule rule(const struct ck_modprobe *mp, const char *m, const char **why)
{
	return ck_modprobe_rule(mp, m, why);
}

static void test_modprobe_rules(void **state)
{
	(void)state;
	assert_true(ck_modprobe_cmd_blocks("/bin/true"));
	assert_true(ck_modprobe_cmd_blocks("/bin/false"));
	assert_true(ck_modprobe_cmd_blocks("/usr/bin/false  --whatever  "));
	assert_true(ck_modprobe_cmd_blocks("true"));
	assert_false(ck_modprobe_cmd_blocks("/bin/false; /sbin/modprobe --ignore-install x"));
	assert_false(ck_modprobe_cmd_blocks("/sbin/modprobe --ignore-install x"));
	assert_false(ck_modprobe_cmd_blocks("/bin/true && modprobe x"));
	assert_false(ck_modprobe_cmd_blocks("/bin/true $(modprobe x)"));
	assert_false(ck_modprobe_cmd_blocks("/bin/truex"));
	assert_false(ck_modprobe_cmd_blocks("/bin/echo blocked"));
	assert_false(ck_modprobe_cmd_blocks(""));

	struct ck_modprobe *mp = ck_modprobe_new();
	const char *a = "# CIS\nblacklist usb-storage\ninstall usb-storage /bin/false\n"
			"  install cramfs /bin/true\nblacklist dccp\ninstall sctp /sbin/modprobe "
			"--ignore-install sctp\nblacklist sctp\ninstall tipc \\\n  /bin/false\n"
			"install rds\nblacklist bad/name\nalias net-pf-3 off\noptions x y=1\n";
	ck_modprobe_add_text(mp, "/etc/modprobe.d/a.conf", a, strlen(a));
	const char *b = "install dccp /bin/true\ninstall sctp /bin/true\n";
	ck_modprobe_add_text(mp, "/etc/modprobe.d/b.conf", b, strlen(b));
	const char *why;
	/* install true/false blocks; '-' and '_' are the same module */
	assert_int_equal(rule(mp, "usb_storage", &why), CK_MP_BLOCKED);
	assert_string_equal(why, "/etc/modprobe.d/a.conf:3: install usb_storage /bin/false");
	assert_int_equal(rule(mp, "cramfs", &why), CK_MP_BLOCKED);
	assert_string_equal(why, "/etc/modprobe.d/a.conf:4: install cramfs /bin/true");
	/* a later file's install rule applies when none came before */
	assert_int_equal(rule(mp, "dccp", &why), CK_MP_BLOCKED);
	assert_string_equal(why, "/etc/modprobe.d/b.conf:1: install dccp /bin/true");
	/* the first install rule runs (it loads the module): only the blacklist is left */
	assert_int_equal(rule(mp, "sctp", &why), CK_MP_BLACKLIST);
	assert_string_equal(why, "/etc/modprobe.d/a.conf:7: blacklist sctp");
	/* a continued line */
	assert_int_equal(rule(mp, "tipc", &why), CK_MP_BLOCKED);
	assert_non_null(strstr(why, "a.conf:8: install tipc"));
	/* install without a command, a bad name, other keywords: nothing */
	assert_int_equal(rule(mp, "rds", &why), CK_MP_NONE);
	assert_null(why);
	assert_int_equal(rule(mp, "x", NULL), CK_MP_NONE);
	assert_int_equal(rule(mp, "net-pf-3", NULL), CK_MP_NONE);
	assert_int_equal(ck_modprobe_nfiles(mp), 2);
	/* the kernel command line: module_blacklist= blocks, modprobe.blacklist= only blacklists */
	const char *cmd = "BOOT_IMAGE=/vmlinuz ro module_blacklist=rds,x-y modprobe.blacklist=z\n";
	ck_modprobe_add_cmdline(mp, cmd, strlen(cmd));
	assert_int_equal(rule(mp, "rds", &why), CK_MP_BLOCKED);
	assert_string_equal(why, "/proc/cmdline: module_blacklist=rds");
	assert_int_equal(rule(mp, "x_y", NULL), CK_MP_BLOCKED);
	assert_int_equal(rule(mp, "sctp", NULL), CK_MP_BLACKLIST); /* the first install rule */
	assert_int_equal(rule(mp, "z", &why), CK_MP_BLACKLIST);
	assert_string_equal(why, "/proc/cmdline: modprobe.blacklist=z");
	/* modules_disabled: every module */
	ck_modprobe_set_disabled(mp, "/proc/sys/kernel/modules_disabled = 1");
	assert_int_equal(rule(mp, "anything", &why), CK_MP_BLOCKED);
	assert_string_equal(why, "/proc/sys/kernel/modules_disabled = 1");
	ck_modprobe_free(mp);
	char out[56];
	assert_true(ck_module_name_norm("nf-tables", 9, out, sizeof out));
	assert_string_equal(out, "nf_tables");
	assert_false(ck_module_name_norm("a b", 3, out, sizeof out));
	assert_false(ck_module_name_norm("", 0, out, sizeof out));
}

static void put(const char *root, const char *rel, const char *text)
{
	char path[512], cmd[600];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname %s)\"", path);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(atomic_write_file(path, text, strlen(text), 0644), 0);
}

static void collect(void *ctx, const char *msg)
{
	(*(int *)ctx)++;
	assert_null(strchr(msg, '\n'));
}

static void drop(void *ctx, const char *msg)
{
	(void)ctx;
	(void)msg;
}

static const struct kcve_diag quiet = {drop, drop, NULL};

static void test_modprobe_dirs(void **state)
{
	(void)state;
	char root[] = "/tmp/kcve-mproot-XXXXXX";
	assert_non_null(mkdtemp(root));
	/* same name: etc hides lib; run hides lib; a /dev/null link masks */
	put(root, "lib/modprobe.d/10-x.conf", "install aa /bin/true\ninstall bb /bin/true\n");
	put(root, "etc/modprobe.d/10-x.conf", "blacklist aa\n");
	put(root, "run/modprobe.d/20-y.conf", "install cc /bin/false\n");
	put(root, "usr/lib/modprobe.d/20-y.conf", "install dd /bin/false\n");
	put(root, "usr/lib/modprobe.d/30-z.conf", "install ee /bin/false\n");
	put(root, "usr/lib/modprobe.d/40-w.conf", "install ff /bin/false\n");
	put(root, "usr/lib/modprobe.d/not-conf.txt", "install gg /bin/false\n");
	put(root, "outside.conf", "install hh /bin/false\n");
	put(root, "usr/lib/modules/6.1.5/modules.builtin", "kernel/net/core/fail-over.ko\nbad\n");
	char p[512], t[512];
	snprintf(p, sizeof p, "%s/etc/modprobe.d/30-z.conf", root);
	assert_int_equal(symlink("/dev/null", p), 0);
	snprintf(p, sizeof p, "%s/etc/modprobe.d/50-link.conf", root);
	snprintf(t, sizeof t, "%s/outside.conf", root);
	assert_int_equal(symlink(t, p), 0);
	struct ck_modprobe *mp = NULL;
	struct kcve_err e = {0};
	int warned = 0;
	struct kcve_diag counted = {collect, NULL, &warned};
	assert_int_equal(ck_modprobe_load(&mp, root, "6.1.5", &counted, &e), 0);
	assert_true(ck_modprobe_knows_builtin(mp));
	assert_true(ck_modprobe_is_builtin(mp, "fail_over"));
	assert_false(ck_modprobe_is_builtin(mp, "bad"));
	const char *why;
	assert_int_equal(ck_modprobe_rule(mp, "aa", &why), CK_MP_BLACKLIST);
	assert_string_equal(why, "/etc/modprobe.d/10-x.conf:1: blacklist aa");
	assert_int_equal(ck_modprobe_rule(mp, "bb", NULL), CK_MP_NONE);
	assert_int_equal(ck_modprobe_rule(mp, "cc", &why), CK_MP_BLOCKED);
	assert_string_equal(why, "/run/modprobe.d/20-y.conf:1: install cc /bin/false");
	assert_int_equal(ck_modprobe_rule(mp, "dd", NULL), CK_MP_NONE);
	assert_int_equal(ck_modprobe_rule(mp, "ee", NULL), CK_MP_NONE); /* masked */
	assert_int_equal(ck_modprobe_rule(mp, "ff", NULL), CK_MP_BLOCKED);
	assert_int_equal(ck_modprobe_rule(mp, "gg", NULL), CK_MP_NONE);
	assert_int_equal(ck_modprobe_rule(mp, "hh", NULL), CK_MP_NONE); /* link not followed */
	assert_int_equal(warned, 1);
	assert_int_equal(ck_modprobe_nfiles(mp), 3);
	ck_modprobe_free(mp);
	/* a root without any modprobe.d: no rules, no error; a missing root: an error */
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf %s/etc %s/run %s/lib %s/usr", root, root, root, root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(ck_modprobe_load(&mp, root, "6.1.5", &quiet, &e), 0);
	assert_int_equal(ck_modprobe_nfiles(mp), 0);
	assert_false(ck_modprobe_knows_builtin(mp));
	ck_modprobe_free(mp);
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(ck_modprobe_load(&mp, root, "6.1.5", &quiet, &e), KCVE_E_NOTFOUND);
}

/* A record set of n records with ids/scores, for the ranking and stage tests. */
static void mkset(struct ck_set *s, struct ck_result *R, const char **ids, const unsigned *score,
		  size_t n)
{
	memset(s, 0, sizeof *s);
	memset(R, 0, sizeof *R);
	s->v = xcalloc(n, sizeof *s->v);
	s->n = n;
	R->e = xcalloc(n, sizeof *R->e);
	R->n = n;
	for (size_t i = 0; i < n; i++) {
		s->v[i].id = ids[i];
		s->v[i].score10 = score[i];
		R->e[i].rec = i;
		R->e[i].outcome = CK_OUT_AFFECTED;
	}
}

static void test_rank(void **state)
{
	(void)state;
	const char *ids[] = {"CVE-2024-10000", "CVE-2024-9999", "CVE-2024-50302", "CVE-2024-1",
			     "CVE-2024-2", "CVE-2024-3", "CVE-2024-4", "CVE-2024-5"};
	const unsigned score[] = {55, 55, 78, 98, 0, 70, 70, 90};
	struct ck_set s;
	struct ck_result R;
	mkset(&s, &R, ids, score, 8);
	size_t order[8];
	/* no KEV/EPSS: CVSS, then id (9999 before 10000) */
	assert_int_equal(ck_rank_order(&s, &R, order), 8);
	size_t want0[] = {3, 7, 2, 5, 6, 1, 0, 4};
	assert_memory_equal(order, want0, sizeof want0);
	/* KEV first; EPSS next; not-loaded and blacklisted lower; unknown after affected;
	 * not kept entries out */
	R.e[2].kev = true;
	R.e[4].kev = true;
	R.e[6].has_epss = true, R.e[6].epss = 0.5;
	R.e[5].has_epss = true, R.e[5].epss = 0.1;
	R.e[3].module = CK_MOD_NOT_LOADED;
	R.e[7].mitigation = CK_MIT_BLACKLIST, R.e[7].module = CK_MOD_NOT_LOADED;
	R.e[1].outcome = CK_OUT_UNKNOWN;
	R.e[0].outcome = CK_OUT_MITIGATED;
	assert_int_equal(ck_rank_order(&s, &R, order), 7);
	size_t want1[] = {2, 4, 6, 5, 1, 3, 7};
	assert_memory_equal(order, want1, 7 * sizeof *order);
	free(s.v);
	free(R.e);
}

static enum ck_filev fake_verdict(void *ctx, const char *path, const char **reason)
{
	(void)ctx, (void)reason;
	return strstr(path, "off") ? CK_FILE_NOT_COMPILED : CK_FILE_COMPILED;
}

/* "drivers/x/MOD.c" links into MOD, "core/..." is built in. */
static bool fake_module(void *ctx, const char *path, char *out, size_t outsz)
{
	(void)ctx;
	if (strncmp(path, "drivers/x/", 10))
		return false;
	snprintf(out, outsz, "%.*s", (int)strcspn(path + 10, "."), path + 10);
	return true;
}

static void test_mitigation_stage(void **state)
{
	(void)state;
	const char *ids[] = {"CVE-2024-1", "CVE-2024-2", "CVE-2024-3", "CVE-2024-4", "CVE-2024-5",
			     "CVE-2024-6", "CVE-2024-7"};
	const unsigned score[] = {1, 2, 3, 4, 5, 6, 7};
	struct ck_set s;
	struct ck_result R;
	mkset(&s, &R, ids, score, 7);
	const char *f0[] = {"drivers/x/blocked-a.c", "drivers/x/off.c"};
	const char *f1[] = {"drivers/x/blocked_a.c", "drivers/x/listed.c"};
	const char *f2[] = {"drivers/x/blocked_a.c", "core/builtin.c"};
	const char *f3[] = {"drivers/x/free.c", "drivers/x/blocked_a.c"};
	const char *f4[] = {"drivers/x/blocked_a.c"};
	const char *f6[] = {"drivers/x/inkernel.c"};
	const char **files[] = {f0, f1, f2, f3, f4, f4, f6};
	size_t nfiles[] = {2, 2, 2, 2, 1, 1, 1};
	for (size_t i = 0; i < 7; i++) {
		s.v[i].files = files[i];
		s.v[i].nfiles = nfiles[i];
		R.e[i].module = CK_MOD_NOT_LOADED;
	}
	R.e[4].module = CK_MOD_LOADED;     /* loaded now: the rules do not matter */
	R.e[5].outcome = CK_OUT_UNKNOWN;   /* undecided: left alone */
	struct ck_modprobe *mp = ck_modprobe_new();
	const char *conf = "install blocked-a /bin/false\nblacklist listed\ninstall inkernel true\n";
	ck_modprobe_add_text(mp, "/etc/modprobe.d/k.conf", conf, strlen(conf));
	/* without modules.builtin nothing counts */
	ck_run_modprobe(&s, &R, mp, fake_verdict, fake_module, NULL);
	for (size_t i = 0; i < 7; i++)
		assert_int_equal(R.e[i].mitigation, CK_MIT_NONE);
	const char *builtin = "kernel/drivers/x/inkernel.ko\n";
	ck_modprobe_add_builtin(mp, builtin, strlen(builtin));
	ck_run_modprobe(&s, &R, mp, fake_verdict, fake_module, NULL);
	assert_int_equal(R.e[0].outcome, CK_OUT_MITIGATED);
	assert_int_equal(R.e[0].mitigation, CK_MIT_BLOCKED);
	assert_string_equal(R.e[0].mitigation_why, "/etc/modprobe.d/k.conf:1: install blocked_a /bin/false");
	assert_non_null(strstr(R.e[0].reason, "not affected: mitigated"));
	assert_string_equal(R.e[0].stage, "modprobe");
	assert_int_equal(R.e[1].outcome, CK_OUT_AFFECTED);
	assert_int_equal(R.e[1].mitigation, CK_MIT_BLACKLIST);
	assert_non_null(strstr(R.e[1].mitigation_why, "k.conf:2: blacklist listed"));
	assert_non_null(strstr(R.e[1].mitigation_why, "k.conf:1: install blocked_a"));
	assert_int_equal(R.e[2].outcome, CK_OUT_AFFECTED); /* built-in code: never */
	assert_int_equal(R.e[2].mitigation, CK_MIT_NONE);
	assert_int_equal(R.e[3].mitigation, CK_MIT_NONE); /* one module without a rule */
	assert_int_equal(R.e[4].mitigation, CK_MIT_NONE);
	assert_int_equal(R.e[5].outcome, CK_OUT_UNKNOWN);
	/* a module built into the kernel: not mitigated, and no longer "not loaded" */
	assert_int_equal(R.e[6].outcome, CK_OUT_AFFECTED);
	assert_int_equal(R.e[6].mitigation, CK_MIT_NONE);
	assert_int_equal(R.e[6].module, CK_MOD_NONE);
	assert_string_equal(R.stages[R.nstages - 1].name, "modprobe");
	assert_int_equal(R.stages[R.nstages - 1].count, 6);
	ck_modprobe_free(mp);
	for (size_t i = 0; i < 7; i++) {
		free(R.e[i].reason);
		free(R.e[i].mitigation_why);
	}
	free(s.v);
	free(R.e);
}

static void test_exploitation_stage(void **state)
{
	(void)state;
	const char *ids[] = {"CVE-2024-53104", "CVE-2024-0002", "CVE-2024-50302"};
	const unsigned score[] = {1, 2, 3};
	struct ck_set s;
	struct ck_result R;
	mkset(&s, &R, ids, score, 3);
	struct ck_kev k;
	struct kcve_err e;
	const char *doc = KEV_DOC(KEV_ENTRY("CVE-2024-53104", "Linux", "Kernel", "Known") ","
				  KEV_ENTRY("CVE-2024-1086", "Linux", "Kernel", "Unknown") ","
				  KEV_ENTRY("CVE-2014-0196", "Linux", "Kernel", "Unknown") ","
				  KEV_ENTRY("CVE-2024-0002", "Git", "Git", "Unknown"));
	assert_int_equal(kev_text(&k, doc, &e), 0);
	struct ck_epss p;
	assert_int_equal(epss_text(&p, "cve,epss,percentile\nCVE-2024-50302,0.3,0.9\n", &e), 0);
	struct ck_triage t;
	ck_triage_init(&t, &s, &k, &p);
	ck_run_exploitation(&s, &R, &t);
	assert_true(R.e[0].kev && R.e[0].kev_ransomware);
	assert_true(R.e[1].kev && !R.e[1].kev_ransomware); /* listed, even for another vendor */
	assert_false(R.e[2].kev);
	assert_true(R.e[2].has_epss && R.e[2].epss > 0.29);
	assert_false(R.e[0].has_epss);
	assert_int_equal(R.nuntracked_kev, 2);
	assert_string_equal(R.untracked_kev[0], "CVE-2014-0196");
	assert_string_equal(R.untracked_kev[1], "CVE-2024-1086");
	assert_true(R.ranked_kev && R.ranked_epss);
	ck_result_release(&R);
	ck_triage_release(&t);
	ck_kev_release(&k);
	ck_epss_release(&p);
	free(s.v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kev),
		cmocka_unit_test(test_cve_ids),
		cmocka_unit_test(test_epss),
		cmocka_unit_test(test_epss_load),
		cmocka_unit_test(test_modprobe_rules),
		cmocka_unit_test(test_modprobe_dirs),
		cmocka_unit_test(test_rank),
		cmocka_unit_test(test_mitigation_stage),
		cmocka_unit_test(test_exploitation_stage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
