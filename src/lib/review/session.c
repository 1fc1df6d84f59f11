#include "review/session.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/fileio.h"
#include "core/xalloc.h"
#include "review/votefile.h"

int session_open(struct review_session *s, const char *tree_root, const char *tag,
		 const char *reviewer, struct kcve_err *err)
{
	memset(s, 0, sizeof(*s));
	char name[512];
	snprintf(name, sizeof name, "%s-%s", tag, reviewer);
	char *pdir = path_join(tree_root, "cve/review/proposed");
	char *gdir = path_join(tree_root, "tmp/cve-review/processed");
	if (mkdir_p(pdir, 0755) < 0 || mkdir_p(gdir, 0755) < 0) {
		int e = errno;
		free(pdir);
		free(gdir);
		return kcve_err_set(err, KCVE_E_IO, "cannot create review directories in %s: %s",
				    tree_root, strerror(e));
	}
	s->votes_path = path_join(pdir, name);
	s->progress_path = path_join(gdir, name);
	free(pdir);
	free(gdir);
	if ((read_file(s->votes_path, &s->votes) < 0 && errno != ENOENT) ||
	    (read_file(s->progress_path, &s->progress) < 0 && errno != ENOENT)) {
		int e = errno;
		return kcve_err_set(err, KCVE_E_IO, "cannot read %s: %s", s->votes_path, strerror(e));
	}
	return 0;
}

static bool has_line_prefix(const struct strbuf *sb, const char *prefix)
{
	size_t n = strlen(prefix);
	for (const char *p = sb_str(sb); *p;) {
		if (strncmp(p, prefix, n) == 0)
			return true;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return false;
}

bool session_processed(const struct review_session *s, const char *id)
{
	return has_line_prefix(&s->progress, id);
}

static int save(const char *path, const struct strbuf *sb, struct kcve_err *err)
{
	if (atomic_write_file(path, sb_str(sb), sb->len, 0644) < 0)
		return kcve_err_set(err, KCVE_E_IO, "cannot write %s: %s", path, strerror(errno));
	return 0;
}

int session_answer(struct review_session *s, const struct range_commit *c, bool vote,
		   const char *suffix, struct kcve_err *err)
{
	char short_id[13];
	snprintf(short_id, sizeof short_id, "%.12s", c->upstream);
	if (vote && !has_line_prefix(&s->votes, short_id)) {
		votefile_format_vote(&s->votes, c->upstream, c->subject, suffix);
		if (save(s->votes_path, &s->votes, err))
			return err->code;
	}
	sb_addf(&s->progress, "%s\n", c->id);
	return save(s->progress_path, &s->progress, err);
}

void session_close(struct review_session *s)
{
	free(s->votes_path);
	free(s->progress_path);
	sb_release(&s->votes);
	sb_release(&s->progress);
	memset(s, 0, sizeof(*s));
}
