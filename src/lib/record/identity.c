/* Sender identity resolution (see identity.h). */
#include "record/identity.h"
#include "core/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void trim(const char **s, size_t *n)
{
	while (*n > 0 && (**s == ' ' || **s == '\t'))
		(*s)++, (*n)--;
	while (*n > 0 && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t' || (*s)[*n - 1] == '\n'))
		(*n)--;
}

static int check_span(const char *what, const char *v, size_t n, struct kcve_err *err)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)v[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return kcve_err_set(err, KCVE_E_USAGE, "%s has a control character (byte 0x%02x "
					    "at offset %zu): refusing it, it would inject mail headers",
					    what, c, i);
	}
	return 0;
}

int identity_check_header(const char *what, const char *v, struct kcve_err *err)
{
	return v ? check_span(what, v, strlen(v), err) : 0;
}

int identity_parse(struct kcve_identity *id, const char *text, struct kcve_err *err)
{
	size_t n = strlen(text);
	while (n && text[n - 1] == '\n')
		n--;   /* a trailing newline (from $(cat file)) is trimmed below, not a header */
	int rc = check_span("the sender (--from / $KCVE_FROM)", text, n, err);
	if (rc)
		return rc;
	const char *lt = strchr(text, '<');
	const char *gt = lt ? strchr(lt, '>') : NULL;
	if (!lt || !gt || gt[1 + strspn(gt + 1, " \t\n")] != '\0')
		return kcve_err_set(err, KCVE_E_USAGE,
				    "sender '%s' is not of the form \"Name <email>\"", text);
	const char *name = text, *email = lt + 1;
	size_t nl = (size_t)(lt - text), el = (size_t)(gt - lt - 1);
	trim(&name, &nl);
	trim(&email, &el);
	if (el == 0 || !memchr(email, '@', el) || memchr(email, '<', el) || memchr(email, ' ', el))
		return kcve_err_set(err, KCVE_E_USAGE, "sender '%s' has no valid e-mail address", text);
	if (nl >= sizeof(id->name) || el >= sizeof(id->email))
		return kcve_err_set(err, KCVE_E_USAGE, "sender '%s' is too long", text);
	memcpy(id->name, name, nl);
	id->name[nl] = '\0';
	memcpy(id->email, email, el);
	id->email[el] = '\0';
	return 0;
}

/* git config value (repository config if repo, else the user's global/system config). */
static int config_get(git_repository *repo, const char *key, char *out, size_t outsz)
{
	git_config *cfg = NULL, *snap = NULL;
	int rc = -1;
	if (repo ? git_repository_config(&cfg, repo) : git_config_open_default(&cfg))
		return -1;
	if (git_config_snapshot(&snap, cfg) == 0) {
		const char *v = NULL;
		if (git_config_get_string(&v, snap, key) == 0 && v && *v) {
			text_snprintf(out, outsz, "%s", v);
			rc = 0;
		}
		git_config_free(snap);
	}
	git_config_free(cfg);
	return rc;
}

int identity_resolve(struct kcve_identity *id, const char *from_opt, git_repository *repo,
		     struct kcve_err *err)
{
	memset(id, 0, sizeof(*id));
	if (from_opt)
		return identity_parse(id, from_opt, err);
	const char *env = getenv("KCVE_FROM");
	if (env && *env)
		return identity_parse(id, env, err);
	env = getenv("CVE_USER");
	if (env && *env) {
		if (strlen(env) >= sizeof(id->email) || !strchr(env, '@'))
			return kcve_err_set(err, KCVE_E_USAGE, "$CVE_USER '%s' is not an e-mail address",
					    env);
		text_snprintf(id->email, sizeof(id->email), "%s", env);
		if (config_get(repo, "user.name", id->name, sizeof(id->name)) < 0)
			return kcve_err_set(err, KCVE_E_NOTFOUND,
					    "no sender name: $CVE_USER is set but git config user.name "
					    "is not; set it or pass --from \"Name <email>\"");
		return 0;
	}
	if (config_get(repo, "user.name", id->name, sizeof(id->name)) < 0 ||
	    config_get(repo, "user.email", id->email, sizeof(id->email)) < 0)
		return kcve_err_set(err, KCVE_E_NOTFOUND,
				    "no sender identity: pass --from \"Name <email>\", or set $KCVE_FROM, "
				    "or git config user.name and user.email");
	return 0;
}
