/* The record pipeline (see record.h): fix commits -> pairs -> policy -> JSON + mbox. */
#include "record/record.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/cveid.h"
#include "core/fileio.h"
#include "core/version.h"
#include "core/xalloc.h"
#include "history/dyad.h"
#include "record/affected.h"
#include "record/commit_info.h"
#include "record/cvss_file.h"
#include "record/description.h"
#include "record/render.h"
#include "record/utf8.h"
#include "core/text.h"

size_t record_drop_not_affected(struct dyad_list *pairs, const char *const *branches, size_t n)
{
	if (!branches || !n)
		return 0;
	size_t kept = 0;
	for (size_t i = 0; i < pairs->n; i++) {
		const struct dyad_pair *p = &pairs->v[i];
		char major[32];
		kver_str_major(dyad_pair_unfixed(p) ? p->vver : p->fver, major, sizeof(major));
		bool drop = false;
		for (size_t k = 0; k < n && !drop && major[0]; k++)
			drop = branches[k] && strcmp(branches[k], major) == 0;
		if (!drop)
			pairs->v[kept++] = *p;
	}
	size_t dropped = pairs->n - kept;
	pairs->n = kept;
	return dropped;
}

void record_output_release(struct record_output *out)
{
	sb_release(&out->json);
	sb_release(&out->mbox);
	sb_release(&out->dyad);
	dyad_list_release(&out->pairs);
	free(out->subject);
	out->subject = NULL;
}

/* Read an optional input file given by the user; any failure is the user's to fix. */
static int read_input(const char *what, const char *path, struct strbuf *sb, struct kcve_err *err)
{
	if (read_file(path, sb) < 0) {
		int e = errno;
		return kcve_err_set(err, e == ENOENT ? KCVE_E_NOTFOUND : KCVE_E_IO,
				    "cannot read %s file %s (%s); check the path and its permissions",
				    what, path, strerror(e));
	}
	if (!utf8_valid(sb->buf ? sb->buf : "", sb->len))
		return kcve_err_set(err, KCVE_E_PARSE, "%s file %s is not valid UTF-8", what, path);
	return 0;
}

/* .reference: one URL per line, trimmed, blank lines ignored. */
static void parse_refs(const char *text, struct url_list *out)
{
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		const char *s = p;
		size_t l = utf8_lspace(s, n);
		s += l, n -= l;
		n -= utf8_rspace(s, n);
		if (n) {
			char *u = xstrndup(s, n);
			url_list_add(out, u);
			free(u);
		}
		if (!nl)
			break;
		p = nl + 1;
	}
}

static int read_org_uuid(const char *tree, char *out, size_t outsz, struct kcve_err *err)
{
	text_snprintf(out, outsz, "%s", RECORD_DEFAULT_ORG_UUID);
	if (!tree)
		return 0;
	char *path = path_join(tree, "scripts/linux.uuid");
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;
	if (read_file(path, &sb) == 0) {
		const char *s = sb_str(&sb);
		size_t n = sb.len, l = utf8_lspace(s, n);
		s += l, n -= l;
		n -= utf8_rspace(s, n);
		if (n == 0 || n >= outsz)
			rc = kcve_err_set(err, KCVE_E_TREE, "%s is empty or malformed; it must hold the "
							    "CNA's organisation UUID", path);
		else
			text_snprintf(out, outsz, "%.*s", (int)n, s);
	}
	sb_release(&sb);
	free(path);
	return rc;
}

static int load_tags(const char *tree, struct tag_list *tags, struct kcve_err *err)
{
	if (tree) {
		char *path = path_join(tree, "scripts/tags");
		if (path_exists(path)) {
			int rc = tags_load_file(tags, path, err);
			free(path);
			return rc;
		}
		free(path);
	}
	tags_builtin(tags);
	return 0;
}

/* Read and validate a .cvss file; the message says what to fix. */
static int read_cvss(const char *path, struct cvss_file *cvss, struct kcve_err *err)
{
	int rc = cvss_file_read(path, cvss, err);
	char msg[sizeof(err->msg)];
	if (rc) {
		if (rc == KCVE_E_PARSE) {
			text_snprintf(msg, sizeof(msg), "%s", err->msg);
			kcve_err_set(err, rc, "%.400s; fix it (see 'kcve cvss --help')", msg);
		}
		return rc;
	}
	if ((rc = cvss_file_validate(cvss, err))) {
		text_snprintf(msg, sizeof(msg), "%s", err->msg);
		kcve_err_set(err, rc, "CVSS file %s: %.300s; fix the rationale or the vector", path,
			     msg);
	}
	return rc;
}

/* The maintainers' not-affected branches override the computed history; then the issuance
 * policy (docs/spec/record.md "Issuance policy"): some pair must not be same-version. */
static int apply_policy(const struct record_input *in, struct record_output *out,
			struct kcve_err *err)
{
	size_t dropped = record_drop_not_affected(&out->pairs, in->not_affected,
						  in->nnot_affected);
	dyad_format_pairs(&out->pairs, &out->dyad);
	if (dropped && !affected_should_issue(&out->pairs))
		return kcve_err_set(err, KCVE_E_POLICY,
				    "every released vulnerable:fixed pair is on a branch declared not "
				    "affected, so not assigning %s to %s; reject the CVE instead",
				    in->cve, out->main_sha);
	if (!affected_should_issue(&out->pairs))
		return kcve_err_set(err, KCVE_E_POLICY,
				    "despite having some vulnerable:fixed kernels, none were in an "
				    "actual release, so not assigning %s to %s",
				    in->cve, out->main_sha);
	return 0;
}

/* Every sha must resolve: one unknown sha would make the pairs incomplete. main_sha gets the
 * first fix's full id. */
static int resolve_all(struct history *h, const struct record_input *in, char main_sha[41],
		       struct kcve_err *err)
{
	int rc = 0;
	for (size_t i = 0; i < in->nshas && !rc; i++) {
		char full[41];
		rc = history_resolve(h, in->shas[i], full, err);
		if (rc == 0 && i == 0)
			memcpy(main_sha, full, 41);
	}
	for (size_t i = 0; i < in->nvulnerable && !rc; i++) {
		char full[41];
		rc = history_resolve(h, in->vulnerable[i], full, err);
	}
	return rc;
}

int record_build(struct history *h, const struct record_input *in, struct record_output *out,
		 struct kcve_err *err)
{
	memset(out, 0, sizeof(*out));
	dyad_list_init(&out->pairs);
	if (!in->cve || !cveid_valid(in->cve))
		return kcve_err_set(err, KCVE_E_USAGE, "'%s' is not a CVE id (CVE-YYYY-NNNNN)",
				    in->cve ? in->cve : "");
	if (in->nshas == 0)
		return kcve_err_set(err, KCVE_E_USAGE, "no fix commit given for %s", in->cve);
	if (!in->from)
		return kcve_err_set(err, KCVE_E_USAGE, "no sender identity for the mbox");

	int rc = 0;
	struct commit_info ci = {0};
	struct tag_list tags = {0};
	struct url_list refs = {0};
	struct cvss_file cvss = {0};
	bool have_cvss = false;
	struct strbuf desc = STRBUF_INIT, text = STRBUF_INIT;
	char uuid[128];

	if ((rc = resolve_all(h, in, out->main_sha, err)))
		goto done;

	/* inputs that can be wrong are checked before any work */
	if (in->reference_path) {
		sb_reset(&text);
		if ((rc = read_input("reference", in->reference_path, &text, err)))
			goto done;
		parse_refs(sb_str(&text), &refs);
	}
	if (in->cvss_path) {
		if ((rc = read_cvss(in->cvss_path, &cvss, err)))
			goto done;
		have_cvss = true;
	}
	if ((rc = read_org_uuid(in->vulns_tree, uuid, sizeof(uuid), err)))
		goto done;
	if ((rc = load_tags(in->vulns_tree, &tags, err)))
		goto done;

	struct dyad_request req = {in->shas, in->nshas, in->vulnerable, in->nvulnerable};
	if ((rc = dyad_compute(h, &req, &out->pairs, &out->dyad, err)))
		goto done;
	if ((rc = apply_policy(in, out, err)))
		goto done;

	if ((rc = commit_info_load(history_git(h), out->main_sha, &ci, err)))
		goto done;
	bool from_message = false;
	if (in->message_path) {
		sb_reset(&text);
		if ((rc = read_input("message", in->message_path, &text, err)))
			goto done;
		from_message = description_from_message(text.buf ? text.buf : "", text.len, &desc);
	}
	if (!from_message)
		description_from_commit(ci.message, strlen(ci.message), &tags, &desc);

	struct record_model m = {
		.cve = in->cve,
		.main_sha = out->main_sha,
		.subject = ci.subject,
		.description = sb_str(&desc),
		.pairs = &out->pairs,
		.files = (const char *const *)ci.files,
		.nfiles = ci.nfiles,
		.refs = (const char *const *)refs.v,
		.nrefs = refs.n,
		.cvss = have_cvss ? &cvss : NULL,
		.org_uuid = uuid,
		.generator = in->generator,
		.from = in->from,
	};
	record_render_json(&m, &out->json);
	record_render_mbox(&m, &out->mbox);
	out->subject = xstrdup(ci.subject);

done:
	if (rc) {
		sb_release(&out->json);
		sb_release(&out->mbox);
		sb_release(&out->dyad);
		dyad_list_release(&out->pairs);
	}
	commit_info_release(&ci);
	tags_release(&tags);
	url_list_release(&refs);
	cvss_file_release(&cvss);
	sb_release(&desc);
	sb_release(&text);
	return rc;
}
