/* kcve update: regenerate .dyad/.json/.mbox of published CVEs after new releases; report the
 * CVEs whose files changed. Restartable: changed CVEs are committed in journaled batches (a
 * crash leaves each CVE old or new), and a rerun only rewrites what is still stale. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_json.h"
#include "cli_report.h"
#include "cli_store.h"
#include "core/progress.h"
#include "core/strmap.h"
#include "core/xalloc.h"
#include "history/history.h"
#include "record/identity.h"
#include "store/ops.h"
#include "store/tree_internal.h"
#include "core/kjson.h"

struct update_args {
	long jobs;
	const char *from;
	bool full;
};
enum { O_JSON = CLI_LONG };
static const struct cli_option opts[] = {
	{.name = "jobs", .key = 'j', .arg = true, .type = CLI_NUMBER,
	 .target = offsetof(struct update_args, jobs), .meta = "N", .min = 1, .max = 64,
	 .help = "run N worker processes (default 1)"},
	CLI_OPT_STRING("from", struct update_args, from, "'Name <email>'",
		       "the sender to name in the regenerated .mbox files"),
	CLI_OPT_FLAG("full", struct update_args, full,
		     "re-render every record (after upgrading kcve), not only those whose\n"
		     "inputs or pairs changed"),
	CLI_OPT_LOGIC("json", O_JSON, NULL,
		      "{\"checked\", \"updated\", \"failed\", \"cves\": [{\"cve\", \"files\": [\"dyad\",\n"
		      "\"json\", \"mbox\"], \"new\": [...]}]} (the changed CVEs in id order)"),
	CLI_OPT_END};
static const struct cli_command update_cmd = {
	"update", "[-j N] [--full] [--from 'Name <email>'] [--json] [CVE-ID|YEAR]...",
	"Regenerate the .dyad, .json and .mbox of the given published CVEs (default:\n"
	"all, newest year first) from their .sha1/.vulnerable/.reference/.message/.cvss\n"
	"and .not_affected (branches whose pairs are dropped, see kcve dispute).\n"
	"A file is rewritten only when a line other than generator-version, '#' header\n"
	"or sender-address lines changed. Prints \"<CVE>: updated <files>\" per changed\n"
	"CVE, then a count line.\n"
	"A CVE whose inputs are all older than its .json is checked through its pairs\n"
	"alone (the .json/.mbox are re-rendered only if the pairs changed).\n",
	opts, false};

struct counters {
	size_t checked, changed, failed;
};

/* CVEs per journaled batch: large enough that the journal and directory syncs vanish next to
 * the per-file fsyncs, small enough that a crash loses little work. */
#define UPDATE_BATCH 64

/* The batch's changed CVEs and what changed in each, reported after the commit. */
struct pending {
	char **ids, **whats;
	size_t n, alloc;
};

static void pending_add(struct pending *p, const char *id, const char *what)
{
	if (p->n == p->alloc) {
		p->alloc = p->alloc ? p->alloc * 2 : UPDATE_BATCH;
		p->ids = xrealloc(p->ids, p->alloc * sizeof(*p->ids));
		p->whats = xrealloc(p->whats, p->alloc * sizeof(*p->whats));
	}
	p->ids[p->n] = xstrdup(id);
	p->whats[p->n++] = xstrdup(what);
}

static void pending_clear(struct pending *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->ids[i]);
		free(p->whats[i]);
	}
	p->n = 0;
}

/* With --json, the changed CVEs go to this file ("CVE what" lines) instead of stdout; the
 * worker processes share it (one write per flushed batch) and the parent reads it at the end. */
static FILE *changed_log;

/* Commit the open batch and report its CVEs ("updated" only once they are on disk). */
static void flush_batch(struct store_batch **b, struct pending *p, struct counters *c)
{
	if (!*b)
		return;
	struct kcve_err err = {0};
	int rc = store_batch_commit(*b, &err);
	*b = NULL;
	if (rc) {
		__atomic_add_fetch(&c->failed, p->n, __ATOMIC_SEQ_CST);
		kcve_error("%s", err.msg);
	} else {
		__atomic_add_fetch(&c->changed, p->n, __ATOMIC_SEQ_CST);
		FILE *out = changed_log ? changed_log : stdout;
		for (size_t i = 0; i < p->n; i++)
			fprintf(out, changed_log ? "%s %s\n" : "%s: updated %s\n", p->ids[i],
				p->whats[i]);
		fflush(out);
	}
	pending_clear(p);
}

static void run_slice(struct cve_tree *t, struct kcve_global *g, const struct cve_entry *v,
		      size_t n, size_t k, size_t nworkers, const struct kcve_identity *who,
		      unsigned flags, struct counters *c)
{
	struct history *h = cli_open_history(g);
	struct kcve_err lerr = {0};
	history_load_exclusions(h, tree_root(t), &lerr);
	struct store_batch *b = NULL;
	struct pending p = {0};
	/* one progress line for all workers: the first one draws the shared count */
	struct progress pg;
	progress_begin(&pg, "checking CVEs", n);
	pg.on = pg.on && k == 0;
	for (size_t i = k; i < n; i += nworkers) {
		progress_update(&pg, __atomic_load_n(&c->checked, __ATOMIC_SEQ_CST));
		struct kcve_err err = {0};
		if (!b && store_batch_begin(&b, t, &err)) {
			__atomic_add_fetch(&c->checked, 1, __ATOMIC_SEQ_CST);
			__atomic_add_fetch(&c->failed, 1, __ATOMIC_SEQ_CST);
			kcve_error("%s", err.msg);
			continue;
		}
		struct strbuf what = STRBUF_INIT;
		bool changed = false;
		int rc = store_update_one_ex(t, h, v[i].id, who, flags, &what, &changed, b, &err);
		__atomic_add_fetch(&c->checked, 1, __ATOMIC_SEQ_CST);
		if (rc) {
			__atomic_add_fetch(&c->failed, 1, __ATOMIC_SEQ_CST);
			kcve_error("%s", err.msg);
		} else if (changed) {
			pending_add(&p, v[i].id, what.buf ? what.buf : "");
		}
		sb_release(&what);
		/* after a failure, settle the batch at once: a failed staging write makes it
		 * unusable, and the CVEs before it should not wait on it */
		if (rc || store_batch_cves(b) >= UPDATE_BATCH)
			flush_batch(&b, &p, c);
	}
	flush_batch(&b, &p, c);
	progress_end(&pg, __atomic_load_n(&c->checked, __ATOMIC_SEQ_CST));
	free(p.ids);
	free(p.whats);
	history_close(h);
}

/* The --json document from the counters and the changed-CVE lines of every worker. */
static int print_json(const struct counters *c)
{
	char line[512];
	char **lines = NULL;
	size_t n = 0, alloc = 0;
	rewind(changed_log);
	while (fgets(line, sizeof line, changed_log)) {
		line[strcspn(line, "\n")] = '\0';
		XGROW(lines, n + 1, alloc);
		lines[n++] = xstrdup(line);
	}
	fclose(changed_log);
	changed_log = NULL;
	if (n)
		qsort(lines, n, sizeof(*lines), cmp_str);
	json_t *cves = json_array();
	for (size_t i = 0; i < n; i++) {
		/* "CVE-ID dyad json mbox(new)" */
		char *save = NULL, *id = strtok_r(lines[i], " ", &save);
		json_t *files = json_array(), *fresh = json_array();
		for (char *w = strtok_r(NULL, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
			char *paren = strstr(w, "(new)");
			if (paren)
				*paren = '\0';
			json_array_append_new(files, kj_str(w));
			if (paren)
				json_array_append_new(fresh, kj_str(w));
		}
		json_array_append_new(cves, kj_pack("{s:s, s:o, s:o}", "cve", id ? id : "", "files",
						      files, "new", fresh));
		free(lines[i]);
	}
	free(lines);
	return cli_json_print(kj_pack("{s:I, s:I, s:I, s:o}", "checked", (json_int_t)c->checked,
					"updated", (json_int_t)c->changed, "failed",
					(json_int_t)c->failed, "cves", cves));
}

/* Split sel over jobs forked workers, each with its own journal slot (the tree lock is held by
 * this process and inherited); a worker that does not exit 0 is a failure. */
static int run_workers(struct cve_tree *t, struct kcve_global *g, struct cve_entry *sel,
		       size_t nsel, long jobs, const struct kcve_identity *who, unsigned flags,
		       struct counters *c)
{
	int rc = 0;
	fflush(stdout);
	fflush(stderr);
	pid_t *pids = xcalloc((size_t)jobs, sizeof(*pids));
	for (long k = 0; k < jobs; k++) {
		pid_t p = fork();
		if (p == 0) {
			t->txn_slot = (int)k + 1; /* own journal and staging directory */
			run_slice(t, g, sel, nsel, (size_t)k, (size_t)jobs, who, flags, c);
			fflush(stdout);
			_exit(0);
		}
		pids[k] = p;
	}
	for (long k = 0; k < jobs; k++) {
		int st = 0;
		if (pids[k] > 0 && waitpid(pids[k], &st, 0) > 0 &&
		    !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
			kcve_error("update worker %ld failed (status %d), update, rerun 'kcve "
				   "update' to finish", k, st);
			rc = KCVE_E_GENERIC;
		}
	}
	free(pids);
	return rc;
}

int cmd_update(int argc, char **argv, struct kcve_global *g)
{
	struct update_args a = {.jobs = 1};
	struct cli_parser p;
	cli_begin(&p, &update_cmd, argc, argv, g);
	cli_bind(&p, &a);
	for (int c; (c = cli_next(&p)) != -1;) {
		if (c == O_JSON && !changed_log && !(changed_log = tmpfile()))
			kcve_die(KCVE_E_IO, "cannot create a temporary file for --json, /tmp, "
				 "check that it is writable");
	}
	const char *from = a.from;
	long jobs = a.jobs;
	unsigned flags = a.full ? STORE_UPDATE_FULL : 0;
	char **targets;
	size_t ntargets = (size_t)cli_done(&p, &targets, 0, -1, "");
	for (size_t i = 0; i < ntargets; i++)
		if (!cve_id_valid(targets[i]) && !cli_is_year(targets[i]))
			cli_usage_error(&p, "not a CVE id or a year (1999-9999): '%s'", targets[i]);
	struct kcve_identity whobuf, *who = NULL;
	struct kcve_err err = {0};
	if (from) {
		if (identity_parse(&whobuf, from, &err))
			return cli_fail(&err);
		who = &whobuf;
	}
	struct cve_tree *t = cli_open_tree(g);
	int rc = tree_lock(t, &err);
	if (rc) {
		tree_close(t);
		return cli_fail(&err);
	}
	struct cve_entry *all;
	size_t nall;
	tree_collect(t, CVE_PUBLISHED, &all, &nall);
	/* pick the targets; without any, every published CVE, newest year first */
	struct cve_entry *sel = xcalloc(nall + 1, sizeof(*sel));
	bool *taken = xcalloc(nall + 1, sizeof(*taken));
	size_t nsel = 0;
	for (size_t ti = 0; ti < ntargets && !rc; ti++) {
		bool hit = false;
		for (size_t i = 0; i < nall; i++) {
			if (cli_is_year(targets[ti]) ? all[i].year == atoi(targets[ti])
						 : !strcmp(all[i].id, targets[ti])) {
				if (!taken[i])
					sel[nsel++] = all[i];
				taken[i] = hit = true;
			}
		}
		if (!hit && !cli_is_year(targets[ti])) {
			kcve_error("not a published CVE, %s, check it with 'kcve search'", targets[ti]);
			rc = KCVE_E_NOTFOUND;
		}
	}
	if (!ntargets) {
		size_t i = nall;
		while (i > 0) {
			size_t end = i;
			int y = all[i - 1].year;
			while (i > 0 && all[i - 1].year == y)
				i--;
			for (size_t k = i; k < end; k++)
				sel[nsel++] = all[k];
		}
	}
	struct counters *c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c == MAP_FAILED)
		kcve_die(KCVE_E_GENERIC, "cannot map shared counters, update, retry");
	memset(c, 0, sizeof(*c));
	if (!rc && (jobs == 1 || nsel < 2)) {
		run_slice(t, g, sel, nsel, 0, 1, who, flags, c);
	} else if (!rc) {
		rc = run_workers(t, g, sel, nsel, jobs, who, flags, c);
	}
	if (changed_log) {
		int jrc = print_json(c);
		rc = rc ? rc : jrc;
	} else {
		printf("%zu checked, %zu updated, %zu failed\n", c->checked, c->changed, c->failed);
	}
	if (!rc && c->failed)
		rc = KCVE_E_GENERIC;
	munmap(c, sizeof(*c));
	free(sel);
	free(taken);
	tree_entries_free(all, nall);
	tree_unlock(t);
	tree_close(t);
	return rc;
}
