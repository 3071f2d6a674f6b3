// Shared by the serial iterations (linalg_tql.wgsl, linalg_bdsqr.wgsl).

// hypot without overflow or needless underflow.
fn hyp(x: T, y: T) -> T {
    let top = max(abs(x), abs(y));
    if (top == T(0.0)) {
        return T(0.0);
    }
    let a = x / top;
    let b = y / top;
    return top * sqrt(a * a + b * b);
}
