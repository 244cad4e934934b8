/* A small disk without root: an LD_PRELOAD shim that makes the folder DISKFAULT_ROOT behave
 * like a file system of DISKFAULT_BYTES bytes, for the full-disk tests (tests/small_disk.py)
 * where a tmpfs in a private mount namespace cannot be had.
 *
 * Why a shim of our own: libfiu (the maintained POSIX fault injector) fails a call by name, by
 * chance or always, for every file alike; a full disk is a budget shared by every process
 * writing into one folder, spent by some files and given back when they are removed.
 *
 * What it does, for files under the root only (stdout, pipes and every other file pass):
 * - the bytes used are those the folder's files hold now (allocated blocks, page-rounded, as a
 *   tmpfs counts them), measured at each growing write, so `rm` gives room back;
 * - a write that would grow past the budget writes what fits (a short write) and then fails
 *   with ENOSPC, as a real full disk does: write, pwrite, writev, pwritev, copy_file_range,
 *   sendfile, fallocate, posix_fallocate;
 * - statvfs/fstatvfs report the budget, so code that checks free space sees it;
 * - once the file DISKFAULT_READONLY names exists, the folder is a read-only mount: writes and
 *   opens for writing fail with EROFS and statvfs says ST_RDONLY.
 * SQLite, tantivy (Rust std) and Python write through libc's symbols, so they all meet it.
 * - a shared writable map of a file whose holes (sparse parts) the free bytes cannot back
 *   raises SIGBUS at once, where a tmpfs would raise it when a hole is touched: pessimistic,
 *   since the pages written through a map are never counted.
 * Not covered: the bytes written through memory maps,
 * glibc's own stdio, which calls the kernel without the public symbols, and exactness under
 * concurrent writers (room is measured, then written: each may overshoot by one write).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define PAGE 4096LL

static char root[PATH_MAX];
static size_t root_len;
static long long budget = -1;
static const char *readonly_flag;

static void __attribute__((constructor)) setup(void) {
    const char *r = getenv("DISKFAULT_ROOT"), *b = getenv("DISKFAULT_BYTES");
    readonly_flag = getenv("DISKFAULT_READONLY");
    if (r && b && realpath(r, root)) {
        root_len = strlen(root);
        budget = atoll(b);
    }
}

#define REAL(name) static __typeof__(name) *real_##name; \
    if (!real_##name) real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

static int under_root(const char *abs) {
    return budget >= 0 && strncmp(abs, root, root_len) == 0
        && (abs[root_len] == '/' || abs[root_len] == '\0');
}

static int fd_under_root(int fd) {
    char link[64], target[PATH_MAX];
    if (budget < 0) return 0;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n < 0) return 0;
    target[n] = '\0';
    return under_root(target);
}

/* Whether PATH (relative to DIRFD) names something under the root; it need not exist. */
static int path_under_root(int dirfd, const char *path) {
    char base[PATH_MAX], full[PATH_MAX * 2], real[PATH_MAX];
    if (budget < 0 || !path) return 0;
    if (path[0] == '/') {
        snprintf(full, sizeof full, "%s", path);
    } else {
        if (dirfd == AT_FDCWD) {
            if (!getcwd(base, sizeof base)) return 0;
        } else {
            char link[64];
            snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
            ssize_t n = readlink(link, base, sizeof base - 1);
            if (n < 0) return 0;
            base[n] = '\0';
        }
        snprintf(full, sizeof full, "%s/%s", base, path);
    }
    if (realpath(full, real)) return under_root(real);
    char *slash = strrchr(full, '/');  /* not there yet: where its folder is */
    if (!slash) return 0;
    *slash = '\0';
    if (realpath(full[0] ? full : "/", real)) return under_root(real);
    return under_root(full);
}

static int read_only(void) {
    struct stat st;
    return readonly_flag && stat(readonly_flag, &st) == 0;
}

static __thread long long used;  /* per thread: tantivy and Qdrant write from several */

static int count(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)path; (void)ftw;
    if (flag == FTW_F && S_ISREG(st->st_mode)) {
        long long blocks = (long long)st->st_blocks * 512;
        long long pages = (st->st_size + PAGE - 1) / PAGE * PAGE;
        used += blocks < pages ? blocks : pages;
    }
    return 0;
}

static long long free_bytes(void) {
    used = 0;
    nftw(root, count, 16, FTW_PHYS);
    return used >= budget ? 0 : budget - used;
}

/* How many of N bytes written at OFFSET (-1: the file position) of FD fit; -1 with errno set
 * when none does. */
static ssize_t room(int fd, off_t offset, size_t n) {
    struct stat st;
    if (!fd_under_root(fd)) return (ssize_t)n;
    if (read_only()) { errno = EROFS; return -1; }
    if (n == 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return (ssize_t)n;
    if (offset < 0) {
        int flags = fcntl(fd, F_GETFL);
        offset = (flags >= 0 && (flags & O_APPEND)) ? st.st_size : lseek(fd, 0, SEEK_CUR);
        if (offset < 0) return (ssize_t)n;
    }
    long long end = (long long)offset + (long long)n;
    long long have = (st.st_size + PAGE - 1) / PAGE * PAGE;  /* the last page's rest is free */
    if (end <= have) return (ssize_t)n;
    long long grow = (end + PAGE - 1) / PAGE * PAGE - have;
    long long left = free_bytes() / PAGE * PAGE;
    if (grow <= left) return (ssize_t)n;
    long long fits = have + left - (long long)offset;
    if (fits <= 0) { errno = ENOSPC; return -1; }
    return (ssize_t)fits;
}

ssize_t write(int fd, const void *buf, size_t n) {
    REAL(write);
    ssize_t ok = room(fd, -1, n);
    return ok < 0 ? -1 : real_write(fd, buf, (size_t)ok);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off) {
    REAL(pwrite);
    ssize_t ok = room(fd, off, n);
    return ok < 0 ? -1 : real_pwrite(fd, buf, (size_t)ok, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off) {
    REAL(pwrite64);
    ssize_t ok = room(fd, off, n);
    return ok < 0 ? -1 : real_pwrite64(fd, buf, (size_t)ok, off);
}

/* The iovecs cut to the first OK bytes; returns how many are left. */
static int cut(const struct iovec *iov, int cnt, size_t ok, struct iovec *out) {
    int i = 0;
    for (; i < cnt && i < IOV_MAX && ok > 0; i++) {
        out[i] = iov[i];
        if (out[i].iov_len > ok) out[i].iov_len = ok;
        ok -= out[i].iov_len;
    }
    return i;
}

static size_t total(const struct iovec *iov, int cnt) {
    size_t sum = 0;
    for (int i = 0; i < cnt; i++) sum += iov[i].iov_len;
    return sum;
}

ssize_t writev(int fd, const struct iovec *iov, int cnt) {
    REAL(writev);
    size_t n = total(iov, cnt);
    ssize_t ok = room(fd, -1, n);
    if (ok < 0) return -1;
    if ((size_t)ok == n) return real_writev(fd, iov, cnt);
    struct iovec part[IOV_MAX];
    return real_writev(fd, part, cut(iov, cnt, (size_t)ok, part));
}

ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off) {
    REAL(pwritev);
    size_t n = total(iov, cnt);
    ssize_t ok = room(fd, off, n);
    if (ok < 0) return -1;
    if ((size_t)ok == n) return real_pwritev(fd, iov, cnt, off);
    struct iovec part[IOV_MAX];
    return real_pwritev(fd, part, cut(iov, cnt, (size_t)ok, part), off);
}

ssize_t pwritev64(int fd, const struct iovec *iov, int cnt, off_t off) {
    REAL(pwritev64);
    size_t n = total(iov, cnt);
    ssize_t ok = room(fd, off, n);
    if (ok < 0) return -1;
    if ((size_t)ok == n) return real_pwritev64(fd, iov, cnt, off);
    struct iovec part[IOV_MAX];
    return real_pwritev64(fd, part, cut(iov, cnt, (size_t)ok, part), off);
}

ssize_t copy_file_range(int in, off_t *in_off, int out, off_t *out_off, size_t n, unsigned f) {
    REAL(copy_file_range);
    ssize_t ok = room(out, out_off ? *out_off : -1, n);
    return ok < 0 ? -1 : real_copy_file_range(in, in_off, out, out_off, (size_t)ok, f);
}

ssize_t sendfile(int out, int in, off_t *in_off, size_t n) {
    REAL(sendfile);
    ssize_t ok = room(out, -1, n);
    return ok < 0 ? -1 : real_sendfile(out, in, in_off, (size_t)ok);
}

ssize_t sendfile64(int out, int in, off_t *in_off, size_t n) {
    REAL(sendfile64);
    ssize_t ok = room(out, -1, n);
    return ok < 0 ? -1 : real_sendfile64(out, in, in_off, (size_t)ok);
}

static void *mapped(void *(*real)(void *, size_t, int, int, int, off_t), void *addr, size_t len,
                    int prot, int flags, int fd, off_t off) {
    struct stat st;
    if ((prot & PROT_WRITE) && (flags & MAP_SHARED) && fd >= 0 && fd_under_root(fd)
        && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        long long pages = (st.st_size + PAGE - 1) / PAGE * PAGE;
        long long holes = pages - (long long)st.st_blocks * 512;
        if (holes > 0 && holes > free_bytes()) raise(SIGBUS);
    }
    return real(addr, len, prot, flags, fd, off);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    REAL(mmap);
    return mapped(real_mmap, addr, len, prot, flags, fd, off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    REAL(mmap64);
    return mapped(real_mmap64, addr, len, prot, flags, fd, off);
}

/* Room for all of [OFF, OFF+LEN) or an error number (fallocate keeps nothing partial). */
static int whole(int fd, off_t off, off_t len) {
    ssize_t ok = room(fd, off, (size_t)len);
    if (ok < 0) return errno;
    return ok < len ? ENOSPC : 0;
}

int fallocate(int fd, int mode, off_t off, off_t len) {
    REAL(fallocate);
    int err = whole(fd, off, len);
    if (err) { errno = err; return -1; }
    return real_fallocate(fd, mode, off, len);
}

int fallocate64(int fd, int mode, off_t off, off_t len) {
    REAL(fallocate64);
    int err = whole(fd, off, len);
    if (err) { errno = err; return -1; }
    return real_fallocate64(fd, mode, off, len);
}

int posix_fallocate(int fd, off_t off, off_t len) {
    REAL(posix_fallocate);
    int err = whole(fd, off, len);
    return err ? err : real_posix_fallocate(fd, off, len);
}

int posix_fallocate64(int fd, off_t off, off_t len) {
    REAL(posix_fallocate64);
    int err = whole(fd, off, len);
    return err ? err : real_posix_fallocate64(fd, off, len);
}

/* The budget as the file system's size; a macro, for struct statvfs and statvfs64 alike. */
#define report(out) do { \
        long long left = free_bytes(); \
        (out)->f_bsize = (out)->f_frsize = PAGE; \
        (out)->f_blocks = (unsigned long long)(budget / PAGE); \
        (out)->f_bfree = (out)->f_bavail = (unsigned long long)(left / PAGE); \
        if (read_only()) (out)->f_flag |= ST_RDONLY; \
    } while (0)

int statvfs(const char *path, struct statvfs *out) {
    REAL(statvfs);
    int done = real_statvfs(path, out);
    if (done == 0 && path_under_root(AT_FDCWD, path)) report(out);
    return done;
}

int statvfs64(const char *path, struct statvfs64 *out) {
    REAL(statvfs64);
    int done = real_statvfs64(path, out);
    if (done == 0 && path_under_root(AT_FDCWD, path)) report(out);
    return done;
}

int fstatvfs(int fd, struct statvfs *out) {
    REAL(fstatvfs);
    int done = real_fstatvfs(fd, out);
    if (done == 0 && fd_under_root(fd)) report(out);
    return done;
}

int fstatvfs64(int fd, struct statvfs64 *out) {
    REAL(fstatvfs64);
    int done = real_fstatvfs64(fd, out);
    if (done == 0 && fd_under_root(fd)) report(out);
    return done;
}

/* A read-only mount: nothing under the root is made, changed or removed. */
static int refused(int dirfd, const char *path) {
    if (read_only() && path_under_root(dirfd, path)) { errno = EROFS; return 1; }
    return 0;
}

#define WRITING (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)

#define OPEN(name, ...) \
    int name(__VA_ARGS__, int flags, ...) { \
        mode_t mode = 0; \
        if (flags & (O_CREAT | O_TMPFILE)) { \
            va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); \
        }

OPEN(open, const char *path)
    REAL(open);
    if ((flags & WRITING) && refused(AT_FDCWD, path)) return -1;
    return real_open(path, flags, mode);
}

OPEN(open64, const char *path)
    REAL(open64);
    if ((flags & WRITING) && refused(AT_FDCWD, path)) return -1;
    return real_open64(path, flags, mode);
}

OPEN(openat, int dirfd, const char *path)
    REAL(openat);
    if ((flags & WRITING) && refused(dirfd, path)) return -1;
    return real_openat(dirfd, path, flags, mode);
}

OPEN(openat64, int dirfd, const char *path)
    REAL(openat64);
    if ((flags & WRITING) && refused(dirfd, path)) return -1;
    return real_openat64(dirfd, path, flags, mode);
}

int unlink(const char *path) {
    REAL(unlink);
    return refused(AT_FDCWD, path) ? -1 : real_unlink(path);
}

int unlinkat(int dirfd, const char *path, int flags) {
    REAL(unlinkat);
    return refused(dirfd, path) ? -1 : real_unlinkat(dirfd, path, flags);
}

int rename(const char *from, const char *to) {
    REAL(rename);
    return refused(AT_FDCWD, from) || refused(AT_FDCWD, to) ? -1 : real_rename(from, to);
}

int renameat(int fromfd, const char *from, int tofd, const char *to) {
    REAL(renameat);
    return refused(fromfd, from) || refused(tofd, to) ? -1 : real_renameat(fromfd, from, tofd, to);
}

int renameat2(int fromfd, const char *from, int tofd, const char *to, unsigned flags) {
    REAL(renameat2);
    if (refused(fromfd, from) || refused(tofd, to)) return -1;
    return real_renameat2(fromfd, from, tofd, to, flags);
}

int mkdir(const char *path, mode_t mode) {
    REAL(mkdir);
    return refused(AT_FDCWD, path) ? -1 : real_mkdir(path, mode);
}

int mkdirat(int dirfd, const char *path, mode_t mode) {
    REAL(mkdirat);
    return refused(dirfd, path) ? -1 : real_mkdirat(dirfd, path, mode);
}

int rmdir(const char *path) {
    REAL(rmdir);
    return refused(AT_FDCWD, path) ? -1 : real_rmdir(path);
}

int ftruncate(int fd, off_t len) {
    REAL(ftruncate);
    if (read_only() && fd_under_root(fd)) { errno = EROFS; return -1; }
    return real_ftruncate(fd, len);
}

int ftruncate64(int fd, off_t len) {
    REAL(ftruncate64);
    if (read_only() && fd_under_root(fd)) { errno = EROFS; return -1; }
    return real_ftruncate64(fd, len);
}

int access(const char *path, int how) {
    REAL(access);
    if ((how & W_OK) && refused(AT_FDCWD, path)) return -1;
    return real_access(path, how);
}

int faccessat(int dirfd, const char *path, int how, int flags) {
    REAL(faccessat);
    if ((how & W_OK) && refused(dirfd, path)) return -1;
    return real_faccessat(dirfd, path, how, flags);
}
