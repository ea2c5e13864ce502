/* A small stand-in for NumPy's OpenBLAS (libscipy_openblas64_-*.so, with libgfortran: many MB).
 *
 * NumPy's wheel links the ILP64 OpenBLAS with a `scipy_` prefix and a `64_` suffix on every symbol.
 * _multiarray_umath imports 22 CBLAS functions from it (gemm, gemv, syrk, axpy, dot in 4 types: what
 * matmul, dot, vdot, inner and tensordot use for contiguous float/complex arrays); numpy.linalg imports
 * LAPACK. This library defines the same symbols: the CBLAS part for real (a cache-blocked gemm with a
 * 6 x 2-vector register kernel; one thread), the ?copy calls numpy.linalg makes too, OpenBLAS's
 * thread-count calls (app/engine/runtime/blas_threads.py asks for one thread), and LAPACK entry
 * points that write one line to stderr and report failure (info = -1), which NumPy turns into a
 * LinAlgError. Earshot never calls numpy.linalg (packaging/blas_shim.py says how that was checked).
 *
 * Integers are int64 (ILP64); the CBLAS enums are C ints. Built by packaging/blas_shim.py:
 *   cc -shared -fPIC -O3 -ffp-contract=fast -o libscipy_openblas64_-<hash>.so numpy_blas.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int64_t blasint;
enum { ROW_MAJOR = 101, COL_MAJOR = 102, NO_TRANS = 111, TRANS = 112, CONJ_TRANS = 113, CONJ_NO_TRANS = 114,
       UPPER = 121, LOWER = 122 };

#define EXPORT __attribute__((visibility("default")))
#define CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MR 6      /* rows of C per register block */
#define KB 256    /* depth of one packed panel of B */
#define NB 1024   /* columns of one packed block of B (KB x NB x 8 bytes = 2 MB at most: L3) */
#define SB 256    /* rows of C per step of syrk */
#define MB 96     /* rows of one packed block of A (MB x KB x 8 bytes = 192 KB at most: L2) */

/* The element of a strided vector, with BLAS's rule for negative increments (start at the far end). */
#define AT(x, i, n, inc) ((x)[(inc) >= 0 ? (i) * (inc) : ((n) - 1 - (i)) * -(inc)])

static int transposed(int trans) { return trans == TRANS || trans == CONJ_TRANS; }
static int conjugated(int trans) { return trans == CONJ_TRANS || trans == CONJ_NO_TRANS; }

static void *scratch(size_t bytes) {
    void *p = aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (!p) {
        fputs("earshot numpy_blas: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* ---------- real types: float and double ---------- */
#define REAL_GEMM(T, P, VL)                                                                                     \
typedef T P##vec __attribute__((vector_size(32)));                                                             \
/* C[rows x NR] (+)= alpha * Ap[kb x MR] . Bp[kb x ldp]; Ap is packed MR values per k. */                      \
CLONES static void P##kernel(blasint kb, const T *ap, const T *bp, blasint ldp, T acc[MR][2 * VL]) {           \
    P##vec c[MR][2];                                                                                           \
    memset(c, 0, sizeof c);                                                                                    \
    for (blasint k = 0; k < kb; k++) {                                                                         \
        P##vec b0, b1;                                                                                         \
        memcpy(&b0, bp + k * ldp, sizeof b0);                                                                  \
        memcpy(&b1, bp + k * ldp + VL, sizeof b1);                                                             \
        for (int r = 0; r < MR; r++) {                                                                         \
            T a = ap[k * MR + r];                                                                              \
            c[r][0] += a * b0;                                                                                 \
            c[r][1] += a * b1;                                                                                 \
        }                                                                                                      \
    }                                                                                                          \
    memcpy(acc, c, sizeof c);                                                                                  \
}                                                                                                              \
static void P##scale_rows(blasint m, blasint n, T beta, T *c, blasint ldc) {                                   \
    for (blasint i = 0; i < m; i++)                                                                            \
        for (blasint j = 0; j < n; j++) c[i * ldc + j] = beta == 0 ? 0 : beta * c[i * ldc + j];              \
}                                                                                                              \
/* Row-major C[m x n] = alpha * op(A)[m x k] . op(B)[k x n] + beta * C, GotoBLAS's loop order: a KB x NB   \
   block of op(B) packed as 2-vector-wide column strips (one strip stays in L1 while MB rows of op(A),        \
   packed MR at a time, stream past it from L2). */                                                          \
static void P##gemm_rm(int ta, int tb, blasint m, blasint n, blasint k, T alpha, const T *a, blasint lda,     \
                       const T *b, blasint ldb, T beta, T *c, blasint ldc) {                                  \
    if (beta != 1) P##scale_rows(m, n, beta, c, ldc);                                                          \
    if (m == 0 || n == 0 || k == 0 || alpha == 0) return;                                                      \
    enum { NR = 2 * VL };                                                                                      \
    T *bp = scratch(sizeof(T) * KB * NB), *ap = scratch(sizeof(T) * KB * MB);                                  \
    T acc[MR][NR];                                                                                             \
    for (blasint j0 = 0; j0 < n; j0 += NB) {                                                                   \
        blasint nb = MIN(NB, n - j0);                                                                          \
        for (blasint k0 = 0; k0 < k; k0 += KB) {                                                               \
            blasint kb = MIN(KB, k - k0);                                                                      \
            for (blasint j = 0; j < (nb + NR - 1) / NR * NR; j++)                                              \
                for (blasint kk = 0; kk < kb; kk++)                                                            \
                    bp[j / NR * kb * NR + kk * NR + j % NR] =                                                  \
                        j >= nb ? 0 : tb ? b[(j0 + j) * ldb + k0 + kk] : b[(k0 + kk) * ldb + j0 + j];           \
            for (blasint i1 = 0; i1 < m; i1 += MB) {                                                           \
                blasint mb = MIN(MB, m - i1);                                                                  \
                for (blasint i = 0; i < (mb + MR - 1) / MR * MR; i++)                                          \
                    for (blasint kk = 0; kk < kb; kk++)                                                        \
                        ap[i / MR * kb * MR + kk * MR + i % MR] =                                              \
                            i >= mb ? 0 : ta ? a[(k0 + kk) * lda + i1 + i] : a[(i1 + i) * lda + k0 + kk];       \
                for (blasint jj = 0; jj < nb; jj += NR) {                                                      \
                    blasint w = MIN(NR, nb - jj);                                                              \
                    for (blasint i0 = 0; i0 < mb; i0 += MR) {                                                  \
                        P##kernel(kb, ap + i0 * kb, bp + jj * kb, NR, acc);                                    \
                        T *out = c + (i1 + i0) * ldc + j0 + jj;                                                \
                        for (blasint r = 0; r < MIN(MR, mb - i0); r++)                                         \
                            for (blasint j = 0; j < w; j++) out[r * ldc + j] += alpha * acc[r][j];             \
                    }                                                                                          \
                }                                                                                              \
            }                                                                                                  \
        }                                                                                                      \
    }                                                                                                          \
    free(bp);                                                                                                  \
    free(ap);                                                                                                  \
}                                                                                                              \
/* sum x[i] * y[i] over contiguous vectors, in 4 vector accumulators. */                                       \
CLONES static T P##dot_contiguous(blasint n, const T *x, const T *y) {                                         \
    P##vec s[4];                                                                                               \
    memset(s, 0, sizeof s);                                                                                    \
    blasint i = 0;                                                                                             \
    for (; i + 4 * VL <= n; i += 4 * VL)                                                                       \
        for (int v = 0; v < 4; v++) {                                                                          \
            P##vec xv, yv;                                                                                     \
            memcpy(&xv, x + i + v * VL, sizeof xv);                                                            \
            memcpy(&yv, y + i + v * VL, sizeof yv);                                                            \
            s[v] += xv * yv;                                                                                   \
        }                                                                                                      \
    P##vec t = (s[0] + s[1]) + (s[2] + s[3]);                                                                  \
    T sum = 0;                                                                                                 \
    for (int v = 0; v < VL; v++) sum += t[v];                                                                  \
    for (; i < n; i++) sum += x[i] * y[i];                                                                     \
    return sum;                                                                                                \
}                                                                                                              \
static T P##dot_any(blasint n, const T *x, blasint incx, const T *y, blasint incy) {                           \
    if (incx == 1 && incy == 1) return P##dot_contiguous(n, x, y);                                             \
    T sum = 0;                                                                                                 \
    for (blasint i = 0; i < n; i++) sum += AT(x, i, n, incx) * AT(y, i, n, incy);                             \
    return sum;                                                                                                \
}                                                                                                              \
EXPORT T scipy_cblas_##P##dot64_(blasint n, const T *x, blasint incx, const T *y, blasint incy) {              \
    return n > 0 ? P##dot_any(n, x, incx, y, incy) : 0;                                                        \
}                                                                                                              \
EXPORT void scipy_cblas_##P##axpy64_(blasint n, T alpha, const T *x, blasint incx, T *y, blasint incy) {       \
    if (n <= 0 || alpha == 0) return;                                                                          \
    if (incx == 1 && incy == 1) {                                                                              \
        for (blasint i = 0; i < n; i++) y[i] += alpha * x[i];                                                  \
    } else {                                                                                                   \
        for (blasint i = 0; i < n; i++) AT(y, i, n, incy) += alpha * AT(x, i, n, incx);                        \
    }                                                                                                          \
}                                                                                                              \
EXPORT void scipy_cblas_##P##gemm64_(int order, int ta, int tb, blasint m, blasint n, blasint k, T alpha,     \
                                     const T *a, blasint lda, const T *b, blasint ldb, T beta, T *c,          \
                                     blasint ldc) {                                                           \
    if (order == ROW_MAJOR)                                                                                    \
        P##gemm_rm(transposed(ta), transposed(tb), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);             \
    else /* column-major C = op(A) op(B) is row-major C^T = op(B)^T op(A)^T */                                 \
        P##gemm_rm(transposed(tb), transposed(ta), n, m, k, alpha, b, ldb, a, lda, beta, c, ldc);             \
}                                                                                                              \
/* y = alpha * op(A) x + beta * y; A is m x n. */                                                              \
EXPORT void scipy_cblas_##P##gemv64_(int order, int trans, blasint m, blasint n, T alpha, const T *a,         \
                                     blasint lda, const T *x, blasint incx, T beta, T *y, blasint incy) {     \
    int by_rows = (order == ROW_MAJOR) != transposed(trans); /* y[i] = dot(row i of the stored array, x) */    \
    blasint rows = order == ROW_MAJOR ? m : n, cols = order == ROW_MAJOR ? n : m;                              \
    blasint ny = transposed(trans) ? n : m, nx = transposed(trans) ? m : n;                                    \
    if (ny <= 0) return;                                                                                       \
    T *xs = scratch(sizeof(T) * (nx > 0 ? nx : 1)), *t = scratch(sizeof(T) * ny);                              \
    for (blasint i = 0; i < nx; i++) xs[i] = AT(x, i, nx, incx);                                               \
    if (by_rows) {                                                                                             \
        for (blasint i = 0; i < rows; i++) t[i] = P##dot_contiguous(cols, a + i * lda, xs);                    \
    } else {                                                                                                   \
        memset(t, 0, sizeof(T) * ny);                                                                          \
        for (blasint i = 0; i < rows; i++)                                                                     \
            for (blasint j = 0; j < cols; j++) t[j] += xs[i] * a[i * lda + j];                                 \
    }                                                                                                          \
    for (blasint i = 0; i < ny; i++) {                                                                         \
        T old = beta == 0 ? 0 : beta * AT(y, i, ny, incy);                                                     \
        AT(y, i, ny, incy) = old + alpha * t[i];                                                               \
    }                                                                                                          \
    free(xs);                                                                                                  \
    free(t);                                                                                                   \
}                                                                                                              \
/* C = alpha * op(A) op(A)^T + beta * C, only the `uplo` triangle of the n x n C; computed SB full rows  \
   at a time (a SB x n scratch, not n x n). */                                                               \
EXPORT void scipy_cblas_##P##syrk64_(int order, int uplo, int trans, blasint n, blasint k, T alpha,           \
                                     const T *a, blasint lda, T beta, T *c, blasint ldc) {                    \
    if (n <= 0) return;                                                                                        \
    int upper = uplo == UPPER, tr = transposed(trans);                                                         \
    if (order == COL_MAJOR) { upper = !upper; tr = !tr; } /* the same memory read as row-major C^T, A^T */   \
    T *rows = scratch(sizeof(T) * SB * n);                                                                     \
    for (blasint i0 = 0; i0 < n; i0 += SB) {                                                                   \
        blasint rb = MIN(SB, n - i0);                                                                          \
        P##gemm_rm(tr, !tr, rb, n, k, 1, tr ? a + i0 : a + i0 * lda, lda, a, lda, 0, rows, n);                 \
        for (blasint i = i0; i < i0 + rb; i++)                                                                 \
            for (blasint j = upper ? i : 0; j < (upper ? n : i + 1); j++) {                                    \
                T old = beta == 0 ? 0 : beta * c[i * ldc + j];                                                 \
                c[i * ldc + j] = old + alpha * rows[(i - i0) * n + j];                                         \
            }                                                                                                  \
    }                                                                                                          \
    free(rows);                                                                                                \
}

REAL_GEMM(float, s, 8)
REAL_GEMM(double, d, 4)

/* ---------- complex types: interleaved (re, im) pairs ---------- */
#define COMPLEX_BLAS(T, P)                                                                                      \
typedef struct { T re, im; } P##cx;                                                                            \
static P##cx P##mul(P##cx a, P##cx b) { return (P##cx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; } \
static P##cx P##conj(P##cx a, int yes) { return yes ? (P##cx){a.re, -a.im} : a; }                             \
static P##cx P##beta_times(P##cx beta, P##cx c) {                                                              \
    return beta.re == 0 && beta.im == 0 ? (P##cx){0, 0} : P##mul(beta, c);                                     \
}                                                                                                              \
/* Row-major C[m x n] = alpha * op(A) op(B) + beta * C: op(B) packed row-major, one row of op(A) at a time. */  \
static void P##gemm_rm(int ta, int tb, blasint m, blasint n, blasint k, P##cx alpha, const P##cx *a,          \
                       blasint lda, const P##cx *b, blasint ldb, P##cx beta, P##cx *c, blasint ldc) {         \
    P##cx *bp = scratch(sizeof(P##cx) * (k > 0 ? k : 1) * (n > 0 ? n : 1));                                    \
    P##cx *row = scratch(sizeof(P##cx) * (n > 0 ? n : 1));                                                     \
    for (blasint kk = 0; kk < k; kk++)                                                                         \
        for (blasint j = 0; j < n; j++)                                                                        \
            bp[kk * n + j] = P##conj(transposed(tb) ? b[j * ldb + kk] : b[kk * ldb + j], conjugated(tb));     \
    for (blasint i = 0; i < m; i++) {                                                                          \
        memset(row, 0, sizeof(P##cx) * n);                                                                     \
        for (blasint kk = 0; kk < k; kk++) {                                                                   \
            P##cx av = P##conj(transposed(ta) ? a[kk * lda + i] : a[i * lda + kk], conjugated(ta));           \
            for (blasint j = 0; j < n; j++) {                                                                  \
                P##cx bv = bp[kk * n + j];                                                                     \
                row[j].re += av.re * bv.re - av.im * bv.im;                                                    \
                row[j].im += av.re * bv.im + av.im * bv.re;                                                    \
            }                                                                                                  \
        }                                                                                                      \
        for (blasint j = 0; j < n; j++) {                                                                      \
            P##cx old = P##beta_times(beta, c[i * ldc + j]), add = P##mul(alpha, row[j]);                      \
            c[i * ldc + j] = (P##cx){old.re + add.re, old.im + add.im};                                        \
        }                                                                                                      \
    }                                                                                                          \
    free(bp);                                                                                                  \
    free(row);                                                                                                 \
}                                                                                                              \
EXPORT void scipy_cblas_##P##gemm64_(int order, int ta, int tb, blasint m, blasint n, blasint k,              \
                                     const void *alpha, const void *a, blasint lda, const void *b,            \
                                     blasint ldb, const void *beta, void *c, blasint ldc) {                   \
    P##cx al = *(const P##cx *)alpha, be = *(const P##cx *)beta;                                               \
    if (order == ROW_MAJOR)                                                                                    \
        P##gemm_rm(ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);                                           \
    else                                                                                                       \
        P##gemm_rm(tb, ta, n, m, k, al, b, ldb, a, lda, be, c, ldc);                                           \
}                                                                                                              \
static P##cx P##dot(blasint n, const P##cx *x, blasint incx, const P##cx *y, blasint incy, int conj_x) {       \
    P##cx s = {0, 0};                                                                                          \
    for (blasint i = 0; i < n; i++) {                                                                          \
        P##cx p = P##mul(P##conj(AT(x, i, n, incx), conj_x), AT(y, i, n, incy));                              \
        s.re += p.re;                                                                                          \
        s.im += p.im;                                                                                          \
    }                                                                                                          \
    return s;                                                                                                  \
}                                                                                                              \
EXPORT void scipy_cblas_##P##dotu_sub64_(blasint n, const void *x, blasint incx, const void *y, blasint incy,  \
                                         void *ret) {                                                         \
    *(P##cx *)ret = P##dot(n, x, incx, y, incy, 0);                                                            \
}                                                                                                              \
EXPORT void scipy_cblas_##P##dotc_sub64_(blasint n, const void *x, blasint incx, const void *y, blasint incy,  \
                                         void *ret) {                                                         \
    *(P##cx *)ret = P##dot(n, x, incx, y, incy, 1);                                                            \
}                                                                                                              \
EXPORT void scipy_cblas_##P##axpy64_(blasint n, const void *alpha, const void *x, blasint incx, void *y,      \
                                     blasint incy) {                                                          \
    P##cx al = *(const P##cx *)alpha;                                                                          \
    const P##cx *xs = x;                                                                                       \
    P##cx *ys = y;                                                                                             \
    for (blasint i = 0; i < n; i++) {                                                                          \
        P##cx p = P##mul(al, AT(xs, i, n, incx));                                                              \
        AT(ys, i, n, incy).re += p.re;                                                                         \
        AT(ys, i, n, incy).im += p.im;                                                                         \
    }                                                                                                          \
}                                                                                                              \
/* gemv as a gemm with one column: x and y gathered into contiguous vectors. */                                \
EXPORT void scipy_cblas_##P##gemv64_(int order, int trans, blasint m, blasint n, const void *alpha,           \
                                     const void *a, blasint lda, const void *x, blasint incx,                 \
                                     const void *beta, void *y, blasint incy) {                               \
    blasint ny = transposed(trans) ? n : m, nx = transposed(trans) ? m : n;                                    \
    if (ny <= 0) return;                                                                                       \
    const P##cx *xs = x;                                                                                       \
    P##cx *ys = y, *xv = scratch(sizeof(P##cx) * (nx > 0 ? nx : 1)), *yv = scratch(sizeof(P##cx) * ny);        \
    for (blasint i = 0; i < nx; i++) xv[i] = AT(xs, i, nx, incx);                                              \
    for (blasint i = 0; i < ny; i++) yv[i] = AT(ys, i, ny, incy);                                              \
    /* row-major y[ny x 1] = op(A) x; a column-major A is the row-major A^T */                                 \
    int op = order == ROW_MAJOR ? trans : transposed(trans) ? (conjugated(trans) ? CONJ_NO_TRANS : NO_TRANS)   \
                                                            : (conjugated(trans) ? CONJ_TRANS : TRANS);        \
    P##gemm_rm(op, NO_TRANS, ny, 1, nx, *(const P##cx *)alpha, a, lda, xv, 1, *(const P##cx *)beta, yv, 1);    \
    for (blasint i = 0; i < ny; i++) AT(ys, i, ny, incy) = yv[i];                                              \
    free(xv);                                                                                                  \
    free(yv);                                                                                                  \
}                                                                                                              \
EXPORT void scipy_cblas_##P##syrk64_(int order, int uplo, int trans, blasint n, blasint k, const void *alpha,  \
                                     const void *a, blasint lda, const void *beta, void *c, blasint ldc) {    \
    if (n <= 0) return;                                                                                        \
    int upper = uplo == UPPER, tr = transposed(trans);                                                         \
    if (order == COL_MAJOR) { upper = !upper; tr = !tr; }                                                      \
    const P##cx *as = a;                                                                                       \
    P##cx *rows = scratch(sizeof(P##cx) * SB * n), *cs = c;                                                    \
    for (blasint i0 = 0; i0 < n; i0 += SB) {                                                                   \
        blasint rb = MIN(SB, n - i0);                                                                          \
        P##gemm_rm(tr ? TRANS : NO_TRANS, tr ? NO_TRANS : TRANS, rb, n, k, *(const P##cx *)alpha,             \
                   tr ? as + i0 : as + i0 * lda, lda, as, lda, (P##cx){0, 0}, rows, n);                        \
        for (blasint i = i0; i < i0 + rb; i++)                                                                 \
            for (blasint j = upper ? i : 0; j < (upper ? n : i + 1); j++) {                                    \
                P##cx old = P##beta_times(*(const P##cx *)beta, cs[i * ldc + j]), add = rows[(i - i0) * n + j]; \
                cs[i * ldc + j] = (P##cx){old.re + add.re, old.im + add.im};                                   \
            }                                                                                                  \
    }                                                                                                          \
    free(rows);                                                                                                \
}

COMPLEX_BLAS(float, c)
COMPLEX_BLAS(double, z)

/* ---------- OpenBLAS's own thread and build queries: app/engine/runtime/blas_threads.py asks for one thread;
 * this library always computes on the caller's thread. ---------- */
EXPORT void scipy_openblas_set_num_threads64_(int threads) { (void)threads; }
EXPORT int scipy_openblas_get_num_threads64_(void) { return 1; }
EXPORT const char *scipy_openblas_get_config64_(void) { return "earshot numpy_blas (single thread)"; }

/* ---------- BLAS ?copy (Fortran interface: every argument by reference), used by numpy.linalg ---------- */
#define COPY(P, SIZE)                                                                                           \
EXPORT blasint scipy_##P##copy_64_(const blasint *n, const void *x, const blasint *incx, void *y,              \
                                   const blasint *incy) {                                                     \
    const char *xs = x;                                                                                        \
    char *ys = y;                                                                                              \
    for (blasint i = 0; i < *n; i++) {                                                                         \
        blasint xi = *incx >= 0 ? i * *incx : (*n - 1 - i) * -*incx;                                           \
        blasint yi = *incy >= 0 ? i * *incy : (*n - 1 - i) * -*incy;                                           \
        memcpy(ys + yi * SIZE, xs + xi * SIZE, SIZE);                                                          \
    }                                                                                                          \
    return 0;                                                                                                  \
}
COPY(s, 4)
COPY(d, 8)
COPY(c, 8)
COPY(z, 16)

/* ---------- LAPACK: not bundled. Each entry point takes its arguments by reference; `info` is the
 * last one NumPy passes (the counts are LAPACK's signatures, as numpy/linalg/umath_linalg declares
 * them). info = -1 ("argument 1 is illegal") makes NumPy raise LinAlgError or return NaN. ---------- */
static void no_lapack(const char *name, blasint *info) {
    fprintf(stderr, "earshot: numpy.linalg is not in this build (LAPACK %s was called; "
                    "NumPy's OpenBLAS is replaced by a small BLAS, see packaging/blas_shim.py)\n", name);
    *info = -1;
}
#define PTR void *
#define ARGS5 PTR a1, PTR a2, PTR a3, PTR a4, blasint *info
#define ARGS6 PTR a1, PTR a2, PTR a3, PTR a4, PTR a5, blasint *info
#define ARGS8 PTR a1, PTR a2, PTR a3, PTR a4, PTR a5, PTR a6, PTR a7, blasint *info
#define ARGS9 PTR a1, PTR a2, PTR a3, PTR a4, PTR a5, PTR a6, PTR a7, PTR a8, blasint *info
#define ARGS11 PTR a1, PTR a2, PTR a3, PTR a4, PTR a5, PTR a6, PTR a7, PTR a8, PTR a9, PTR a10, blasint *info
#define ARGS13 PTR a1, PTR a2, PTR a3, PTR a4, PTR a5, PTR a6, PTR a7, PTR a8, PTR a9, PTR a10, PTR a11, PTR a12, blasint *info
#define ARGS14 PTR a1, PTR a2, PTR a3, PTR a4, PTR a5, PTR a6, PTR a7, PTR a8, PTR a9, PTR a10, PTR a11, PTR a12, PTR a13, blasint *info
#define ARGS15 PTR a1, PTR a2, PTR a3, PTR a4, PTR a5, PTR a6, PTR a7, PTR a8, PTR a9, PTR a10, PTR a11, PTR a12, PTR a13, PTR a14, blasint *info
#define LAPACK(name, args) EXPORT void scipy_##name##_64_(args) { no_lapack(#name, info); }
/* ?getrf is declared to return an int too */
#define LAPACK_INT(name, args) EXPORT blasint scipy_##name##_64_(args) { no_lapack(#name, info); return -1; }
LAPACK(spotrf, ARGS5) LAPACK(dpotrf, ARGS5) LAPACK(cpotrf, ARGS5) LAPACK(zpotrf, ARGS5)
LAPACK_INT(sgetrf, ARGS6) LAPACK_INT(dgetrf, ARGS6) LAPACK_INT(cgetrf, ARGS6) LAPACK_INT(zgetrf, ARGS6)
LAPACK(sgesv, ARGS8) LAPACK(dgesv, ARGS8) LAPACK(cgesv, ARGS8) LAPACK(zgesv, ARGS8)
LAPACK(dgeqrf, ARGS8) LAPACK(zgeqrf, ARGS8)
LAPACK(dorgqr, ARGS9) LAPACK(zungqr, ARGS9)
LAPACK(ssyevd, ARGS11) LAPACK(dsyevd, ARGS11)
LAPACK(cheevd, ARGS13) LAPACK(zheevd, ARGS13)
LAPACK(sgeev, ARGS14) LAPACK(dgeev, ARGS14) LAPACK(cgeev, ARGS14) LAPACK(zgeev, ARGS14)
LAPACK(sgesdd, ARGS14) LAPACK(dgesdd, ARGS14) LAPACK(cgesdd, ARGS15) LAPACK(zgesdd, ARGS15)
LAPACK(sgelsd, ARGS14) LAPACK(dgelsd, ARGS14) LAPACK(cgelsd, ARGS15) LAPACK(zgelsd, ARGS15)
