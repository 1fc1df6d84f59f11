/* /init of the QEMU boot test: a tiny static PID 1.
 *
 * Mounts proc, sysfs and devtmpfs, prints the running kernel's release, then runs the steps
 * listed in /steps, one per line: "LABEL<TAB>program arg..." (arguments split on spaces) or
 * "LABEL<TAB>!insmod /path/to/module.ko" (loaded with finit_module). Each step's output is
 * framed by "@@KCVE-BEGIN LABEL@@" and "@@KCVE-END LABEL rc=N@@" lines on the console, which
 * the host side parses. Finally it powers the machine off. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

static int insmod(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("insmod: cannot open %s: %s\n", path, strerror(errno));
		return 1;
	}
	long r = syscall(SYS_finit_module, fd, "", 0);
	int e = errno;
	close(fd);
	if (r != 0 && e != EEXIST) {
		printf("insmod: %s: %s\n", path, strerror(e));
		return 1;
	}
	printf("insmod: loaded %s\n", path);
	return 0;
}

static int run(char *cmdline)
{
	char *argv[64];
	int argc = 0;
	for (char *tok = strtok(cmdline, " "); tok && argc < 63; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	if (argc == 0)
		return 1;
	if (strcmp(argv[0], "!insmod") == 0)
		return argc == 2 ? insmod(argv[1]) : 1;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(1, 2);
		char *envp[] = {"PATH=/bin", "HOME=/", NULL};
		execve(argv[0], argv, envp);
		printf("exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(void)
{
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	int con = open("/dev/console", O_RDWR);
	if (con >= 0) {
		dup2(con, 1);
		dup2(con, 2);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct utsname u;
	uname(&u);
	printf("@@KCVE-UNAME %s@@\n", u.release);
	FILE *f = fopen("/steps", "r");
	char line[4096];
	while (f && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		char *tab = strchr(line, '\t');
		if (!tab || line[0] == '#')
			continue;
		*tab = '\0';
		printf("@@KCVE-BEGIN %s@@\n", line);
		int rc = run(tab + 1);
		fflush(stdout);
		printf("@@KCVE-END %s rc=%d@@\n", line, rc);
	}
	printf("@@KCVE-DONE@@\n");
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
