/* The public interface (include/kcve/kcve.h) over the check module: the only symbols libkcve.so
 * exports (libkcve.map).  Kept thin on purpose: it adapts the internal record set and version
 * stage, so the stable surface never exposes internal structs. */
#include "kcve/kcve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/inputs/release.h"
#include "check/records/recset.h"
#include "check/run/entry.h"
#include "check/verdict/check.h"
#include "check/verdict/verdict.h"
#include "core/clock.h"
#include "core/text.h"
#include "core/xalloc.h"

_Static_assert((int)KCVE_STATUS_AFFECTED == (int)CK_OUT_AFFECTED &&
		       (int)KCVE_STATUS_UNKNOWN == (int)CK_OUT_UNKNOWN &&
		       (int)KCVE_STATUS_NOT_COMPILED == (int)CK_OUT_NOT_COMPILED &&
		       (int)KCVE_STATUS_FIXED == (int)CK_OUT_FIXED &&
		       (int)KCVE_STATUS_NOT_INTRODUCED == (int)CK_OUT_NOT_INTRODUCED &&
		       (int)KCVE_STATUS_NO_DATA == (int)CK_OUT_NO_DATA,
	       "public status values are the check module's outcomes");

struct kcve_records {
	struct ck_set set;
	char *origin;
	kcve_warn_fn warn; /* kcve_records_set_warn; NULL: warnings are dropped */
	void *warn_ctx;
};

static int fail(const struct kcve_err *e, char *err, size_t errlen)
{
	if (err && errlen)
		text_snprintf(err, errlen, "%s", e->msg);
	return e->code ? e->code : KCVE_E_GENERIC;
}

const char *kcve_lib_version(void)
{
	return KCVE_VERSION;
}

int kcve_records_open(const char *path, kcve_records **out, char *err, size_t errlen)
{
	struct kcve_err e = {0};
	struct stat st;
	*out = NULL;
	if (clock_init(&e)) /* an invalid $KCVE_NOW / $SOURCE_DATE_EPOCH is an error here */
		return fail(&e, err, errlen);
	if (!path || stat(path, &st) != 0) {
		kcve_err_set(&e, KCVE_E_NOTFOUND, "%s: no such record tree or database",
			     path ? path : "(null)");
		return fail(&e, err, errlen);
	}
	struct kcve_records *r = xcalloc(1, sizeof *r);
	int rc;
	if (S_ISDIR(st.st_mode)) {
		char *root = ck_tree_find(path, &e);
		rc = root ? ck_set_load_tree(&r->set, root, &e) : e.code;
		free(root);
	} else {
		rc = ck_set_load_db(&r->set, path, &e);
	}
	if (rc) {
		ck_set_release(&r->set);
		free(r);
		return fail(&e, err, errlen);
	}
	r->origin = xstrdup(path);
	*out = r;
	return 0;
}

size_t kcve_records_count(const kcve_records *r)
{
	return r->set.n;
}

const char *kcve_records_origin(const kcve_records *r)
{
	return r->origin;
}

void kcve_records_close(kcve_records *r)
{
	if (!r)
		return;
	ck_set_release(&r->set);
	free(r->origin);
	free(r);
}

void kcve_records_set_warn(kcve_records *r, kcve_warn_fn fn, void *ctx)
{
	r->warn = fn;
	r->warn_ctx = ctx;
}

/* The sink of kcve_check_version: each record's answer to the caller's function, each
 * warning to the caller's warning function. */
struct api_walk {
	int all;
	kcve_cve_fn fn;
	void *ctx;
	int rc; /* fn's non-zero value */
	const kcve_records *r;
};

static void api_warn(void *ctx, const char *msg)
{
	const struct api_walk *w = ctx;
	w->r->warn(msg, w->r->warn_ctx);
}

/* What the caller did not ask for is dropped: the API says nothing on stderr. */
static void api_quiet(void *ctx, const char *msg)
{
	(void)ctx, (void)msg;
}

static int api_kernel(void *ctx, const struct ck_set *s, struct ck_result *res)
{
	struct api_walk *w = ctx;
	for (size_t i = 0; i < res->n && w->rc == 0; i++) {
		const struct ck_entry *en = &res->e[i];
		if (!w->all && !ck_outcome_kept(en->outcome))
			continue;
		const struct ck_record *rec = &s->v[en->rec];
		struct kcve_cve c = {
			.id = rec->id,
			.title = rec->title ? rec->title : "",
			.severity = rec->severity ? rec->severity : "",
			.score = rec->score10 / 10.0,
			.status = en->outcome,
			.fixed_in = en->fixed_in,
		};
		w->rc = w->fn(&c, w->ctx);
	}
	return w->rc;
}

int kcve_check_version(kcve_records *r, const char *version, int all, kcve_cve_fn fn, void *ctx,
		       char *err, size_t errlen)
{
	struct kcve_err e = {0};
	char norm[64];
	if (!version || ck_version_normalize(version, norm, sizeof norm, &e) != 0) {
		if (!version)
			kcve_err_set(&e, KCVE_E_USAGE, "no kernel release given");
		return fail(&e, err, errlen);
	}
	/* the same entry as `kcve check --version` (check/run/entry.h) */
	char *rels[] = {norm};
	struct ck_request rq = {.set = &r->set, .releases = rels, .nreleases = 1,
				.reading = CK_READ_JSON, .fixes = true, .max_age = -1,
				.now = clock_now(), .stream = true};
	struct api_walk w = {all, fn, ctx, 0, r};
	struct ck_sink sink = {.ctx = &w, .diag = {r->warn ? api_warn : api_quiet, api_quiet, &w},
			       .kernel = api_kernel};
	int rc = ck_run(&rq, &sink, &e);
	if (rc && w.rc == 0)
		return fail(&e, err, errlen);
	return rc;
}

const char *kcve_status_name(int status)
{
	if (status < KCVE_STATUS_AFFECTED || status > KCVE_STATUS_NO_DATA)
		return "?";
	return ck_outcome_name((enum ck_outcome)status);
}
