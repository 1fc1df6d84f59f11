/* Unit tests of the maintainers area: MAINTAINERS parsing/matching (get_maintainer.pl rules),
 * address handling, dispute authority, mail reading, request triage, foreign records. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/fileio.h"
#include "core/strbuf.h"
#include "maintainers/authority.h"
#include "maintainers/email.h"
#include "maintainers/foreign.h"
#include "maintainers/getmaint.h"
#include "maintainers/mail.h"
#include "maintainers/maintainers.h"
#include "maintainers/request.h"

static struct maintainers *load_fixture(void)
{
	const char *src = getenv("KCVE_SRC");
	assert_non_null(src);
	char *p = path_join(src, "tests/maintainers/data/MAINTAINERS");
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(read_file(p, &sb), 0);
	struct maintainers *m;
	struct kcve_err err;
	assert_int_equal(maintainers_parse(&m, sb.buf, sb.len, NULL, NULL, &err), 0);
	sb_release(&sb);
	free(p);
	return m;
}

/* "NAME:depth,NAME:depth" of the sections matching a file. */
static char *matches(const struct maintainers *m, const char *file)
{
	struct mnt_hit *h;
	size_t n = maintainers_match(m, file, &h);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		sb_addf(&sb, "%s%s:%d", i ? "," : "", m->sec[h[i].section].name, h[i].depth);
	free(h);
	return sb_detach(&sb);
}

#define ASSERT_MATCH(m, file, want)                                                            \
	do {                                                                                   \
		char *got__ = matches(m, file);                                                \
		assert_string_equal(got__, want);                                              \
		free(got__);                                                                   \
	} while (0)

static void test_canonpath(void **state)
{
	(void)state;
	const char *cases[][2] = {{"a//b/./c/", "a/b/c"}, {"./x", "x"}, {"/a/../b", "/a/../b"},
	                          {".", "."}, {"./", "."}, {"///", "/"}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *c = mnt_canonpath(cases[i][0]);
		assert_string_equal(c, cases[i][1]);
		free(c);
	}
}

static void test_sections_and_globs(void **state)
{
	(void)state;
	struct maintainers *m = load_fixture();
	assert_int_equal(m->nbad, 0);
	assert_true(m->sec[m->nsec - 1].the_rest);
	/* trailing '/' = the whole subtree */
	ASSERT_MATCH(m, "drivers/foo/a.c", "FOO DRIVER:2,THE REST:-1");
	ASSERT_MATCH(m, "drivers/foo/deep/er/a.c", "FOO DRIVER:2,THE REST:-1");
	/* X: excludes the whole section for that file */
	ASSERT_MATCH(m, "drivers/foo/vendor/blob.c", "FOO VENDOR BLOBS:3,THE REST:-1");
	/* '*' does not cross '/' (same number of slashes required) */
	ASSERT_MATCH(m, "drivers/bar/x.c", "BAR SUBSYSTEM:3,THE REST:-1");
	ASSERT_MATCH(m, "drivers/bar/sub/x.c", "THE REST:-1");
	ASSERT_MATCH(m, "drivers/bar/x.h", "THE REST:-1");
	/* an exact file pattern */
	ASSERT_MATCH(m, "include/linux/bar.h", "BAR SUBSYSTEM:3,THE REST:-1");
	/* N: regex anywhere in the path, depth 0 */
	ASSERT_MATCH(m, "tools/barfly/x.c", "BAR SUBSYSTEM:0,THE REST:-1");
	ASSERT_MATCH(m, "tools/bigbarfly/x.c", "THE REST:-1");
	/* ordering by depth: orphaned driver (4) before networking (2) before THE REST */
	ASSERT_MATCH(m, "drivers/net/ethernet/orphan/o.c",
	             "ORPHANED ETHERNET DRIVER:4,NETWORKING DRIVERS:2,THE REST:-1");
	/* leading '*': depth -1, ties keep MAINTAINERS order */
	ASSERT_MATCH(m, "fs/docs/readme", "DOCS:-1,THE REST:-1");
	ASSERT_MATCH(m, "Documentation/process/cve.rst", "DOCS:1,THE REST:-1");
	ASSERT_MATCH(m, "Makefile", "THE REST:-1");
	maintainers_free(m);
}

static void test_pattern_details(void **state)
{
	(void)state;
	/* the last matching F: line sets the depth (get_maintainer.pl's $hash{$tvi} = ...), '?'
	 * is one character, '.' is literal, and a directory named without '/' gets one when the
	 * tree says it is a directory */
	const char *txt = "A\nM:\tA <a@x.org>\nF:\tfs/a/x?.c\nF:\tfs/\n\n"
	                  "B\nM:\tB <b@x.org>\nF:\tfs/\nF:\tfs/b/one.c\n\n"
	                  "C\nM:\tC <c@x.org>\nF:\tnet/sub\n";
	struct maintainers *m;
	struct kcve_err err;
	assert_int_equal(maintainers_parse(&m, txt, strlen(txt), NULL, NULL, &err), 0);
	assert_int_equal(m->nsec, 3);
	ASSERT_MATCH(m, "fs/a/x1.c", "A:1,B:1");
	ASSERT_MATCH(m, "fs/b/one.c", "B:3,A:1");
	ASSERT_MATCH(m, "fs/b/oneXc", "A:1,B:1");
	/* without a tree "net/sub" is a file pattern */
	ASSERT_MATCH(m, "net/sub/x.c", "");
	ASSERT_MATCH(m, "net/sub", "C:2");
	maintainers_free(m);
}

static bool fake_isdir(void *ctx, const char *rel)
{
	(void)ctx;
	return strcmp(rel, "net/sub") == 0;
}

static void test_directory_without_slash(void **state)
{
	(void)state;
	const char *txt = "C\nM:\tC <c@x.org>\nF:\tnet/sub\n";
	struct maintainers *m;
	struct kcve_err err;
	assert_int_equal(maintainers_parse(&m, txt, strlen(txt), fake_isdir, NULL, &err), 0);
	ASSERT_MATCH(m, "net/sub/x.c", "C:2");
	ASSERT_MATCH(m, "net/sub/y/z.c", "C:2");
	maintainers_free(m);
}

static void test_parse_errors(void **state)
{
	(void)state;
	struct maintainers *m = NULL;
	struct kcve_err err;
	assert_int_equal(maintainers_parse(&m, "just text\n\nmore\n", 16, NULL, NULL, &err),
	                 KCVE_E_PARSE);
	/* a broken regex is counted and never matches, instead of aborting */
	const char *txt = "A\nM:\tA <a@x.org>\nF:\tfs/[oops\nN:\t(unclosed\nF:\tfs/ok/\n";
	assert_int_equal(maintainers_parse(&m, txt, strlen(txt), NULL, NULL, &err), 0);
	assert_int_equal(m->nbad, 2);
	ASSERT_MATCH(m, "fs/ok/x", "A:2");
	maintainers_free(m);
}

static void test_keywords(void **state)
{
	(void)state;
	struct maintainers *m = load_fixture();
	size_t *kw;
	const char *text = "int x; /* doc_keyword here */";
	size_t n = maintainers_keywords(m, text, strlen(text), &kw);
	assert_int_equal(n, 1);
	assert_string_equal(m->sec[m->section_of[kw[0]]].name, "DOCS");
	free(kw);
	n = maintainers_keywords(m, "nothing", 7, &kw);
	assert_int_equal(n, 0);
	free(kw);
	maintainers_free(m);
}

static void test_email_helpers(void **state)
{
	(void)state;
	char *n, *a;
	mnt_parse_email("Paulo Alcantara <pc@cjr.nz> (DFS, global name space)", &n, &a);
	assert_string_equal(n, "Paulo Alcantara");
	assert_string_equal(a, "pc@cjr.nz");
	free(n), free(a);
	mnt_parse_email("\"David S. Miller\" <davem@davemloft.net>", &n, &a);
	assert_string_equal(n, "\"David S. Miller\"");
	free(n), free(a);
	mnt_parse_email("soc@kernel.org", &n, &a);
	assert_string_equal(n, "");
	assert_string_equal(a, "soc@kernel.org");
	free(n), free(a);
	char *f = mnt_format_email("Enrico Weigelt, metux IT consult", "info@metux.net");
	assert_string_equal(f, "\"Enrico Weigelt, metux IT consult\" <info@metux.net>");
	free(f);
	char **v;
	size_t k = mnt_split_addresses("A One <a@x.org>, B Two <b@y.org>", &v);
	assert_int_equal(k, 2);
	assert_string_equal(v[1], "B Two <b@y.org>");
	mnt_free_strv(v, k);
	k = mnt_split_addresses("Enrico Weigelt, metux IT consult <info@metux.net>", &v);
	assert_int_equal(k, 1);
	mnt_free_strv(v, k);
	const char *mm = "# comment\nReal Name <new@x.org> <old@x.org>\n<canon@y.org> <alias@y.org>\n";
	struct mailmap *map = mailmap_parse(mm, strlen(mm));
	f = mailmap_email(map, "Someone <old@x.org>");
	assert_string_equal(f, "Real Name <new@x.org>");
	free(f);
	f = mailmap_email(map, "Y <alias@y.org>");
	assert_string_equal(f, "Y <canon@y.org>");
	free(f);
	mailmap_free(map);
	char **fe;
	const char *yaml = "maintainers:\n  - Jane Q. Public <jane@example.com>\n";
	k = mnt_file_emails(yaml, strlen(yaml), &fe);
	assert_int_equal(k, 1);
	assert_string_equal(fe[0], "\"Jane Q. Public\" <jane@example.com>");
	mnt_free_strv(fe, k);
}

/* Every lazily compiled pattern of maintainers/email.c once (its KCVE_ASSERT: the constant
 * patterns compile), with the answers get_maintainer.pl gives. */
static void test_email_rfc822(void **state)
{
	(void)state;
	assert_true(mnt_rfc822_valid("jane@example.com"));
	assert_true(mnt_rfc822_valid("Jane Public <jane@example.com> (a comment)"));
	assert_false(mnt_rfc822_valid("Jane <jane@"));
	assert_false(mnt_rfc822_valid("a@x.org, b@y.org"));
	char **v;
	size_t k;
	assert_true(mnt_rfc822_validlist("a@x.org, B <b@y.org>", &v, &k));
	assert_int_equal(k, 2);
	assert_string_equal(v[0], "a@x.org");
	assert_string_equal(v[1], "B <b@y.org>");
	mnt_free_strv(v, k);
	assert_false(mnt_rfc822_validlist("a@x.org, <b@", &v, &k));
	char *lc = mnt_email_address_lc("Jane <Jane@Example.COM>");
	assert_string_equal(lc, "jane@example.com");
	free(lc);
}

static void test_getmaint_dedup(void **state)
{
	(void)state;
	/* the same person (by name) in two sections is listed once, with the first address;
	 * subscriber-only lists are left out; Linus is dropped */
	const char *txt = "A\nM:\tSam Same <sam@one.org>\nL:\tsecret@x.org (subscribers-only)\n"
	                  "F:\tfs/a/\n\nB\nM:\tSam Same <sam@two.org>\nR:\tRay <ray@x.org>\n"
	                  "L:\tb@lists.org\nF:\tfs/\n\nTHE REST\nM:\tLinus Torvalds "
	                  "<torvalds@linux-foundation.org>\nL:\tlkml@x.org\nF:\t*\nF:\t*/\n";
	struct maintainers *m;
	struct kcve_err err;
	assert_int_equal(maintainers_parse(&m, txt, strlen(txt), NULL, NULL, &err), 0);
	const char *files[] = {"fs/a/f.c"};
	struct gm_opts o = {.keywords = false};
	struct gm_result r = {0};
	gm_run(m, files, 1, &o, &r);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < r.n; i++)
		sb_addf(&sb, "%c:%s|", r.v[i].kind, r.v[i].text);
	assert_string_equal(sb.buf, "M:Sam Same <sam@one.org>|R:Ray <ray@x.org>|L:b@lists.org|"
	                            "L:lkml@x.org|");
	sb_release(&sb);
	gm_result_release(&r);
	maintainers_free(m);
}

static bool decide(const struct maintainers *m, const char *const *files, size_t nf,
                   const char *const *by, size_t nb, char **why_out)
{
	struct authority a;
	authority_compute(m, files, nf, &a);
	struct strbuf why = STRBUF_INIT, dec = STRBUF_INIT;
	bool ok = authority_decide(&a, by, nb, &why, &dec);
	authority_release(&a);
	sb_release(&dec);
	if (why_out)
		*why_out = sb_detach(&why);
	else
		sb_release(&why);
	return ok;
}

static void test_authority(void **state)
{
	(void)state;
	struct maintainers *m = load_fixture();
	char *why;
	const char *foo[] = {"drivers/foo/a.c"};
	const char *alice[] = {"ALICE@Example.ORG"};
	assert_true(decide(m, foo, 1, alice, 1, NULL));
	const char *rita[] = {"rita@example.org"};
	assert_false(decide(m, foo, 1, rita, 1, &why));
	assert_non_null(strstr(why, "reviewer"));
	free(why);
	const char *alice2[] = {"alice@example.org"};
	assert_true(decide(m, foo, 1, alice2, 1, NULL));
	const char *eve[] = {"eve@example.org"};
	assert_false(decide(m, foo, 1, eve, 1, NULL));
	/* THE REST never grants authority, not even to Linus */
	const char *mk[] = {"Makefile"};
	const char *linus[] = {"torvalds@linux-foundation.org"};
	assert_false(decide(m, mk, 1, linus, 1, &why));
	assert_non_null(strstr(why, "THE REST"));
	free(why);
	/* orphaned section: authority falls to the next maintained section */
	const char *orph[] = {"drivers/net/ethernet/orphan/o.c"};
	const char *nina[] = {"nina@example.org"};
	assert_true(decide(m, orph, 1, nina, 1, NULL));
	const char *lib[] = {"lib/orphaned/x.c"};
	const char *old[] = {"old@example.org"};
	assert_false(decide(m, lib, 1, old, 1, NULL));
	/* excluded subtree: the vendor section decides, not FOO DRIVER */
	const char *vend[] = {"drivers/foo/vendor/blob.c"};
	assert_false(decide(m, vend, 1, alice2, 1, NULL));
	/* multi-subsystem: every subsystem must be represented */
	const char *multi[] = {"drivers/foo/a.c", "drivers/bar/b.c", "Makefile"};
	assert_false(decide(m, multi, 3, alice2, 1, &why));
	assert_non_null(strstr(why, "BAR SUBSYSTEM"));
	free(why);
	const char *both[] = {"alice@example.org", "carol@example.org"};
	assert_true(decide(m, multi, 3, both, 2, NULL));
	/* a co-signer without authority spoils the dispute */
	const char *plus[] = {"alice@example.org", "bob@example.org", "eve@example.org"};
	assert_false(decide(m, multi, 3, plus, 3, NULL));
	maintainers_free(m);
}

static void test_mail_decoders(void **state)
{
	(void)state;
	char *o;
	size_t n;
	mail_decode_qp("a=3Db=\r\nc=ZZ=4", 15, &o, &n);
	assert_string_equal(o, "a=bc=ZZ=4");
	free(o);
	mail_decode_base64("aGVs\nbG8=", 9, &o, &n);
	assert_string_equal(o, "hello");
	free(o);
	const char *h = "<p>Fix&nbsp;in <a href=\"https://git.kernel.org/stable/c/abc\">here</a>"
	                "<script>evil()</script>&lt;x&gt;&#65;&#x42;</p>";
	mail_html_to_text(h, strlen(h), &o, &n);
	assert_non_null(strstr(o, "https://git.kernel.org/stable/c/abc"));
	assert_null(strstr(o, "evil"));
	assert_non_null(strstr(o, "<x>AB"));
	free(o);
}

static void test_mail_parse(void **state)
{
	(void)state;
	const char *raw =
		"From someone Mon Jan  1 00:00:00 2024\n"
		"From: Ann <ann@example.org>\n"
		"Subject: =?utf-8?Q?Please_assign?=\n =?utf-8?B?IGEgQ1ZF?=\n"
		"Message-Id: <abc@example.org>\n"
		"Content-Type: multipart/alternative; boundary=\"XX\"\n"
		"\n"
		"preamble\n"
		"--XX\n"
		"Content-Type: text/html; charset=utf-8\n"
		"Content-Transfer-Encoding: quoted-printable\n"
		"\n"
		"<b>html=20part</b>\n"
		"--XX\n"
		"Content-Type: text/plain\n"
		"Content-Transfer-Encoding: base64\n"
		"\n"
		"cGxhaW4gcGFydA==\n"
		"--XX--\n";
	struct mail m;
	struct kcve_err err;
	assert_int_equal(mail_parse(raw, strlen(raw), &m, &err), 0);
	assert_string_equal(mail_get(&m, "subject"), "Please assign a CVE");
	assert_string_equal(mail_get(&m, "MESSAGE-ID"), "<abc@example.org>");
	assert_non_null(strstr(m.text, "plain part"));
	assert_null(strstr(m.text, "html part"));   /* plain preferred */
	assert_int_equal(m.nparts, 2);
	mail_release(&m);
	assert_int_equal(mail_parse("no headers at all\njust text\n", 27, &m, &err), KCVE_E_PARSE);
	assert_int_equal(mail_parse("", 0, &m, &err), KCVE_E_PARSE);
}

static void test_find_shas(void **state)
{
	(void)state;
	char out[8][41];
	const char *t = "See https://git.kernel.org/stable/c/0123456789abcdef0123456789abcdef01234567 and\n"
	                "commit abcdef012345 (\"x\") and github.com/torvalds/linux/commit/fedcba987654\n"
	                "Fixes: 111111111aaa (\"introduced\")\nRIP at ffff888012345678, 0xdeadbeef1234\n"
	                "stray 123456789abc\n";
	size_t n = request_find_shas(t, out, 8);
	assert_int_equal(n, 3);
	assert_string_equal(out[0], "0123456789abcdef0123456789abcdef01234567");
	assert_string_equal(out[1], "abcdef012345");
	assert_string_equal(out[2], "fedcba987654");
}

static size_t fixture_shas(const char *name, char (*out)[41], size_t max, bool *html)
{
	char *p = path_join(getenv("KCVE_SRC"), name);
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(read_file(p, &sb), 0);
	struct mail m;
	struct kcve_err err;
	assert_int_equal(mail_parse(sb.buf, sb.len, &m, &err), 0);
	size_t n = request_find_shas(m.text, out, max);
	*html = m.html;
	mail_release(&m);
	sb_release(&sb);
	free(p);
	return n;
}

static void test_fixture_mails(void **state)
{
	(void)state;
	char out[8][41];
	bool html;
	/* HTML only, quoted-printable soft breaks inside the link */
	assert_int_equal(fixture_shas("tests/maintainers/data/req_html.eml", out, 8, &html), 1);
	assert_true(html);
	assert_string_equal(out[0], "9b1c4d7e2a6f8b0c3d5e7f9a1b3c5d7e9f0a2b4c");
	/* base64 text part with three ids */
	assert_int_equal(fixture_shas("tests/maintainers/data/req_several.eml", out, 8, &html), 3);
	assert_false(html);
	assert_string_equal(out[2], "c1b2c3d4e5f6");
	/* link + "commit <short>" of the same fix: two spellings, both kept for resolution */
	assert_int_equal(fixture_shas("tests/maintainers/data/req_plain_fix.eml", out, 8, &html), 2);
	/* the security report names no fix (Fixes: and addresses are not fixes) */
	assert_int_equal(fixture_shas("tests/maintainers/data/req_security.eml", out, 8, &html), 0);
}

/* fake history: ids starting with 'a' are released, 'b' have a CVE, 'c' unreleased */
static int f_resolve(void *ctx, const char *rev, char out[41])
{
	(void)ctx;
	if (rev[0] != 'a' && rev[0] != 'b' && rev[0] != 'c')
		return 7;
	snprintf(out, 41, "%s", rev);
	for (size_t i = strlen(out); i < 40; i++)
		out[i] = '0';
	out[40] = 0;
	return 0;
}
static const char *f_release(void *ctx, const char *sha)
{
	(void)ctx;
	return sha[0] == 'c' ? NULL : "6.6.10";
}
static int f_cve(void *ctx, const char *sha, char cve[32])
{
	(void)ctx;
	if (sha[0] != 'b')
		return 7;
	snprintf(cve, 32, "CVE-2024-12345");
	return 0;
}

static enum request_kind triage(const char *raw, size_t *nq)
{
	struct mail m;
	struct kcve_err err;
	assert_int_equal(mail_parse(raw, strlen(raw), &m, &err), 0);
	struct request_oracle o = {f_resolve, f_release, f_cve, NULL};
	struct request_triage t;
	request_classify(&m, &o, &t);
	enum request_kind k = t.kind;
	if (nq)
		*nq = t.nqueue;
	struct strbuf r = STRBUF_INIT;
	request_reply(&m, &t, "CVE <cve@kernel.org>", "date", &r);
	assert_non_null(strstr(r.buf, "X-kcve-triage: "));
	sb_release(&r);
	request_triage_release(&t);
	mail_release(&m);
	return k;
}

static void test_triage(void **state)
{
	(void)state;
	size_t nq;
	assert_int_equal(triage("From: a@b.org\nSubject: missed fix\n\ncommit a1b2c3d4e5f6 fixes a UAF\n",
	                        &nq), REQ_QUEUE);
	assert_int_equal(nq, 1);
	assert_int_equal(triage("From: a@b.org\nSubject: x\n\ncommit b1b2c3d4e5f6\n", NULL), REQ_ALREADY);
	/* the same fix as a full id and as a short one counts once */
	assert_int_equal(triage("From: a@b.org\nSubject: x\n\ncommit a1b2c3d4e5f6 aka "
	                        "a1b2c3d4e5f60000000000000000000000000000\n", &nq), REQ_QUEUE);
	assert_int_equal(nq, 1);
	assert_int_equal(triage("From: a@b.org\nSubject: x\n\ncommit c1b2c3d4e5f6\n", NULL),
	                 REQ_UNRELEASED);
	assert_int_equal(triage("From: a@b.org\nSubject: x\n\ncommit d1b2c3d4e5f6\n", NULL),
	                 REQ_UNRELEASED);
	assert_int_equal(triage("From: a@b.org\nSubject: CVE id needed\n\nCan you reserve a CVE id "
	                        "for an embargoed issue before the fix is public?\n", NULL),
	                 REQ_RESERVE);
	assert_int_equal(triage("From: a@b.org\nSubject: bug\n\nI found a use-after-free in "
	                        "net/foo, KASAN report at ffff888012345678\nFixes: a1b2c3d4e5f6 "
	                        "(\"intro\")\n", NULL), REQ_SECURITY);
	assert_int_equal(triage("From: a@b.org\nSubject: hello\n\nhow do I subscribe?\n", NULL),
	                 REQ_OTHER);
}

static void test_reply_headers(void **state)
{
	(void)state;
	const char *raw = "From: Evil <evil@x.org>\nReply-To: bad address\n"
	                  "Subject: =?utf-8?Q?hi=0D=0ABcc:_victim@x.org?=\n"
	                  "Message-Id: <id1@x.org>\nReferences: <r0@x.org> garbage <no-at>\n\nhello\n";
	struct mail m;
	struct kcve_err err;
	assert_int_equal(mail_parse(raw, strlen(raw), &m, &err), 0);
	struct request_triage t;
	request_classify(&m, NULL, &t);
	struct strbuf r = STRBUF_INIT;
	request_reply(&m, &t, "CVE <cve@kernel.org>", "date", &r);
	assert_non_null(strstr(r.buf, "\nTo: evil@x.org\n"));
	assert_non_null(strstr(r.buf, "\nIn-Reply-To: <id1@x.org>\n"));
	assert_non_null(strstr(r.buf, "\nReferences: <r0@x.org> <id1@x.org>\n"));
	assert_null(strstr(r.buf, "\nBcc:"));
	sb_release(&r);
	request_triage_release(&t);
	mail_release(&m);
}

static int fo_cve(void *ctx, const char *sha, char cve[32])
{
	(void)ctx;
	if (strncmp(sha, "deadbeef", 8) != 0)
		return 7;
	snprintf(cve, 32, "CVE-2024-00001");
	return 0;
}

static enum foreign_kind fclass(const char *json)
{
	static const char *const sup[] = {"6.6", "6.1", "5.15"};
	struct foreign_oracle o = {fo_cve, NULL, sup, 3};
	struct foreign_result r;
	struct kcve_err err;
	assert_int_equal(foreign_classify(json, strlen(json), KERNEL_CNA_ORG, &o, &r, &err), 0);
	enum foreign_kind k = r.kind;
	foreign_result_release(&r);
	return k;
}

static void test_foreign(void **state)
{
	(void)state;
	const char *head = "{\"dataType\":\"CVE_RECORD\",\"cveMetadata\":{\"cveId\":\"CVE-2024-9999\","
	                   "\"assignerOrgId\":\"11111111-2222-3333-4444-555555555555\","
	                   "\"assignerShortName\":\"other\"},\"containers\":{\"cna\":{";
	char buf[2048];
	snprintf(buf, sizeof(buf), "%s\"affected\":[{\"vendor\":\"Linux\",\"product\":\"Linux kernel\","
	         "\"versions\":[{\"version\":\"6.1\",\"lessThan\":\"6.1.50\",\"status\":\"affected\","
	         "\"versionType\":\"semver\"}]}]}}}", head);
	assert_int_equal(fclass(buf), FOREIGN_INVALID);
	snprintf(buf, sizeof(buf), "%s\"affected\":[{\"vendor\":\"Linux\",\"product\":\"Linux kernel\","
	         "\"versions\":[{\"version\":\"4.9\",\"lessThan\":\"4.9.300\",\"status\":\"affected\"}]}]}}}",
	         head);
	assert_int_equal(fclass(buf), FOREIGN_NOT_OURS);
	snprintf(buf, sizeof(buf), "%s\"affected\":[{\"vendor\":\"Red Hat\",\"product\":\"Red Hat "
	         "Enterprise Linux 8\",\"packageName\":\"kernel\"}]}}}", head);
	assert_int_equal(fclass(buf), FOREIGN_NOT_OURS);
	snprintf(buf, sizeof(buf), "%s\"affected\":[{\"vendor\":\"n/a\",\"product\":\"n/a\",\"cpes\":"
	         "[\"cpe:2.3:o:linux:linux_kernel:*:*:*:*:*:*:*:*\"]}],\"references\":[{\"url\":"
	         "\"https://git.kernel.org/stable/c/deadbeef00112233445566778899aabbccddeeff\"}]}}}", head);
	assert_int_equal(fclass(buf), FOREIGN_DUPLICATE);
	snprintf(buf, sizeof(buf), "%s\"affected\":[{\"vendor\":\"OpenSSL\",\"product\":\"OpenSSL\"}]}}}",
	         head);
	assert_int_equal(fclass(buf), FOREIGN_NOT_KERNEL);
	assert_int_equal(fclass("{\"cveMetadata\":{\"cveId\":\"CVE-2024-1000\",\"assignerOrgId\":"
	                        "\"f4215fc3-5b6b-47ff-a258-f7189bd81038\"},\"containers\":{\"cna\":{}}}"),
	                 FOREIGN_KERNEL_CNA);
	/* 5.4.* upper bound reaches into no supported branch; "*" reaches all */
	snprintf(buf, sizeof(buf), "%s\"affected\":[{\"vendor\":\"Linux\",\"product\":\"Linux\","
	         "\"versions\":[{\"version\":\"5.4\",\"lessThanOrEqual\":\"5.4.*\",\"status\":\"affected\"}]}]}}}",
	         head);
	assert_int_equal(fclass(buf), FOREIGN_NOT_OURS);
	snprintf(buf, sizeof(buf), "%s\"affected\":[{\"vendor\":\"Linux\",\"product\":\"Linux\","
	         "\"versions\":[{\"version\":\"5.4\",\"lessThan\":\"*\",\"status\":\"affected\"}]}]}}}",
	         head);
	assert_int_equal(fclass(buf), FOREIGN_INVALID);
	struct foreign_result r;
	struct kcve_err err;
	static const char *const sup[] = {"6.6"};
	struct foreign_oracle o = {fo_cve, NULL, sup, 1};
	assert_int_equal(foreign_classify("[1,2]", 5, KERNEL_CNA_ORG, &o, &r, &err), KCVE_E_PARSE);
	assert_int_equal(foreign_classify("{", 1, KERNEL_CNA_ORG, &o, &r, &err), KCVE_E_PARSE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_canonpath),
		cmocka_unit_test(test_sections_and_globs),
		cmocka_unit_test(test_pattern_details),
		cmocka_unit_test(test_directory_without_slash),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_keywords),
		cmocka_unit_test(test_email_helpers),
		cmocka_unit_test(test_email_rfc822),
		cmocka_unit_test(test_getmaint_dedup),
		cmocka_unit_test(test_authority),
		cmocka_unit_test(test_mail_decoders),
		cmocka_unit_test(test_mail_parse),
		cmocka_unit_test(test_find_shas),
		cmocka_unit_test(test_fixture_mails),
		cmocka_unit_test(test_triage),
		cmocka_unit_test(test_reply_headers),
		cmocka_unit_test(test_foreign),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
