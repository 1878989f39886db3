//! A naive scatter reference in plain Rust, position by position: the oracle of the tests.
#![allow(dead_code)]
use std::collections::BTreeMap;
use std::fmt::Debug;

use scatter::{Complex32, Complex64, Element, Op, Options, OutOfRange, Reduction, BF16, F16};

/// Element arithmetic as the C contract states it.
pub trait RefElem: Element + PartialEq + Debug {
    /// Whether the contract supports this reduction for the dtype.
    fn supports(r: Reduction) -> bool;
    /// One step `t (op) u` of a reduction other than mean.
    fn step(t: Self, u: Self, r: Reduction) -> Self;
    /// The identity a hit target starts from with exclude_self.
    fn identity(r: Reduction) -> Self;
    /// total / count for mean (floor division for integers).
    fn mean(total: Self, count: usize) -> Self;
    /// A small nonzero value (1..=4) made from `k` (any value for bool).
    fn sample(k: u64) -> Self;
    /// Equal, or close enough for the dtype's arithmetic.
    fn close(a: Self, b: Self) -> bool;
}

macro_rules! float_elem {
    ($t:ty, $tol:expr) => {
        impl RefElem for $t {
            fn supports(_: Reduction) -> bool { true }
            fn step(t: Self, u: Self, r: Reduction) -> Self {
                match r {
                    Reduction::None => u,
                    Reduction::Add | Reduction::Mean => t + u,
                    Reduction::Sub => t - u,
                    Reduction::Mul => t * u,
                    Reduction::Div => t / u,
                    Reduction::Max => if t.is_nan() || u.is_nan() { <$t>::NAN } else { t.max(u) },
                    Reduction::Min => if t.is_nan() || u.is_nan() { <$t>::NAN } else { t.min(u) },
                }
            }
            fn identity(r: Reduction) -> Self {
                match r {
                    Reduction::Mul | Reduction::Div => 1.0,
                    Reduction::Max => <$t>::NEG_INFINITY,
                    Reduction::Min => <$t>::INFINITY,
                    _ => 0.0,
                }
            }
            fn mean(total: Self, count: usize) -> Self { total / count as $t }
            fn sample(k: u64) -> Self { (k % 4 + 1) as $t }
            fn close(a: Self, b: Self) -> bool {
                a == b || (a - b).abs() <= $tol * b.abs().max(1.0) || (a.is_nan() && b.is_nan())
            }
        }
    };
}
float_elem!(f32, 1e-6);
float_elem!(f64, 1e-12);

macro_rules! half_elem {
    ($t:ident, $tol:expr) => {
        impl RefElem for $t {
            fn supports(_: Reduction) -> bool { true }
            fn step(t: Self, u: Self, r: Reduction) -> Self {
                $t::from_f32(f32::step(t.to_f32(), u.to_f32(), r))
            }
            fn identity(r: Reduction) -> Self { $t::from_f32(f32::identity(r)) }
            fn mean(total: Self, count: usize) -> Self { $t::from_f32(total.to_f32() / count as f32) }
            fn sample(k: u64) -> Self { $t::from_f32((k % 4 + 1) as f32) }
            fn close(a: Self, b: Self) -> bool {
                let (a, b) = (a.to_f32(), b.to_f32());
                a == b || (a - b).abs() <= $tol * b.abs().max(1.0)
            }
        }
    };
}
half_elem!(F16, 1e-3);
half_elem!(BF16, 1e-2);

macro_rules! int_elem {
    ($($t:ty),*) => {$(
        impl RefElem for $t {
            fn supports(_: Reduction) -> bool { true }
            fn step(t: Self, u: Self, r: Reduction) -> Self {
                match r {
                    Reduction::None => u,
                    Reduction::Add | Reduction::Mean => t.wrapping_add(u),
                    Reduction::Sub => t.wrapping_sub(u),
                    Reduction::Mul => t.wrapping_mul(u),
                    Reduction::Div => t.wrapping_div(u),
                    Reduction::Max => t.max(u),
                    Reduction::Min => t.min(u),
                }
            }
            fn identity(r: Reduction) -> Self {
                match r {
                    Reduction::Mul | Reduction::Div => 1,
                    Reduction::Max => <$t>::MIN,
                    Reduction::Min => <$t>::MAX,
                    _ => 0,
                }
            }
            fn mean(total: Self, count: usize) -> Self {
                (total as i128).div_euclid(count as i128) as $t // floor division: count > 0
            }
            fn sample(k: u64) -> Self { (k % 4 + 1) as $t }
            fn close(a: Self, b: Self) -> bool { a == b }
        }
    )*};
}
int_elem!(i8, i16, i32, i64, u8, u16, u32, u64);

impl RefElem for bool {
    fn supports(r: Reduction) -> bool {
        matches!(r, Reduction::None | Reduction::Add | Reduction::Mul)
    }
    fn step(t: Self, u: Self, r: Reduction) -> Self {
        match r {
            Reduction::Add => t || u,
            Reduction::Mul => t && u,
            _ => u,
        }
    }
    fn identity(r: Reduction) -> Self {
        r == Reduction::Mul
    }
    fn mean(_: Self, _: usize) -> Self {
        unreachable!("bool has no mean")
    }
    fn sample(k: u64) -> Self {
        k % 2 == 1
    }
    fn close(a: Self, b: Self) -> bool {
        a == b
    }
}

macro_rules! complex_elem {
    ($t:ident, $f:ty, $tol:expr) => {
        impl RefElem for $t {
            fn supports(r: Reduction) -> bool {
                !matches!(r, Reduction::Max | Reduction::Min)
            }
            fn step(t: Self, u: Self, r: Reduction) -> Self {
                match r {
                    Reduction::Add | Reduction::Mean => $t::new(t.re + u.re, t.im + u.im),
                    Reduction::Sub => $t::new(t.re - u.re, t.im - u.im),
                    Reduction::Mul => $t::new(t.re * u.re - t.im * u.im, t.re * u.im + t.im * u.re),
                    Reduction::Div => {
                        let d = u.re * u.re + u.im * u.im;
                        $t::new((t.re * u.re + t.im * u.im) / d, (t.im * u.re - t.re * u.im) / d)
                    }
                    _ => u,
                }
            }
            fn identity(r: Reduction) -> Self {
                if matches!(r, Reduction::Mul | Reduction::Div) { $t::new(1.0, 0.0) } else { $t::new(0.0, 0.0) }
            }
            fn mean(total: Self, count: usize) -> Self {
                $t::new(total.re / count as $f, total.im / count as $f)
            }
            fn sample(k: u64) -> Self {
                $t::new((k % 4 + 1) as $f, (k / 4 % 3) as $f)
            }
            fn close(a: Self, b: Self) -> bool {
                <$f>::close(a.re, b.re) && <$f>::close(a.im, b.im)
            }
        }
    };
}
complex_elem!(Complex32, f32, 1e-5);
complex_elem!(Complex64, f64, 1e-12);

/// A deterministic generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// In [low, high).
    pub fn range(&mut self, low: i64, high: i64) -> i64 {
        low + (self.next() % (high - low) as u64) as i64
    }

    pub fn values<T: RefElem>(&mut self, n: usize) -> Vec<T> {
        (0..n).map(|_| T::sample(self.next() >> 7)).collect()
    }
}

pub fn count(shape: &[usize]) -> usize {
    shape.iter().product()
}

/// Row-major positions of a shape.
pub fn positions(shape: &[usize]) -> Vec<Vec<usize>> {
    let mut out = vec![vec![]];
    for &n in shape {
        out = out.into_iter().flat_map(|p| (0..n).map(move |i| {
            let mut q = p.clone();
            q.push(i);
            q
        })).collect();
    }
    out
}

pub fn flat(position: &[usize], shape: &[usize]) -> usize {
    position.iter().zip(shape).fold(0, |acc, (&i, &n)| acc * n + i)
}

/// The index after the policy: Ok(Some(i)) in range, Ok(None) skipped, Err(()) an error.
fn normalize(i: i64, size: usize, policy: OutOfRange) -> Result<Option<usize>, ()> {
    let s = size as i64;
    if -s <= i && i < s {
        return Ok(Some(((i + s) % s) as usize));
    }
    match policy {
        OutOfRange::Clamp => Ok(Some(i.clamp(0, s - 1) as usize)),
        OutOfRange::Skip => Ok(None),
        OutOfRange::Error => Err(()),
    }
}

/// The reference result; Err(()) when an index is out of range under OutOfRange::Error.
#[allow(clippy::too_many_arguments)]
pub fn reference<T: RefElem>(op: Op, data: &[T], shape: &[usize], indices: &[i64], index_shape: &[usize],
                             updates: &[T], update_shape: &[usize], options: &Options) -> Result<Vec<T>, ()> {
    let rank = shape.len() as i32;
    let axis = if options.axis < 0 { options.axis + rank } else { options.axis } as usize;
    let mut hits: BTreeMap<usize, Vec<T>> = BTreeMap::new();
    for (n, p) in positions(update_shape).into_iter().enumerate() {
        let target: Option<Vec<usize>> = match op {
            Op::Elements => normalize(indices[n], shape[axis], options.out_of_range)?.map(|i| {
                let mut t = p.clone();
                t[axis] = i;
                t
            }),
            Op::Rows => {
                let q = index_shape.len();
                let at = flat(&p[axis..axis + q], index_shape);
                normalize(indices[at], shape[axis], options.out_of_range)?.map(|i| {
                    let mut t = p[..axis].to_vec();
                    t.push(i);
                    t.extend_from_slice(&p[axis + q..]);
                    t
                })
            }
            Op::Nd => {
                let lead = index_shape.len() - 1;
                let k = index_shape[lead];
                let row = flat(&p[..lead], &index_shape[..lead]);
                let mut t = Vec::new();
                let mut skipped = false;
                for d in 0..k {
                    match normalize(indices[row * k + d], shape[d], options.out_of_range)? {
                        Some(i) => t.push(i),
                        None => skipped = true,
                    }
                }
                if skipped {
                    None
                } else {
                    t.extend_from_slice(&p[lead..]);
                    Some(t)
                }
            }
        };
        if let Some(t) = target {
            hits.entry(flat(&t, shape)).or_default().push(updates[n]);
        }
    }
    let mut out = data.to_vec();
    let r = options.reduction;
    for (target, values) in hits {
        let own = r != Reduction::None && options.exclude_self;
        let mut t = if own { T::identity(r) } else { data[target] };
        if r == Reduction::Mean {
            for &u in &values {
                t = T::step(t, u, Reduction::Add);
            }
            t = T::mean(t, values.len() + if options.exclude_self { 0 } else { 1 });
        } else {
            for &u in &values {
                t = T::step(t, u, r);
            }
        }
        out[target] = t;
    }
    Ok(out)
}

/// One test case: data, indices, updates (with shapes) and the axis, as the Python tests make.
pub struct Case<T> {
    pub op: Op,
    pub data: Vec<T>,
    pub shape: Vec<usize>,
    pub indices: Vec<i64>,
    pub index_shape: Vec<usize>,
    pub updates: Vec<T>,
    pub update_shape: Vec<usize>,
    pub axis: i32,
}

/// Duplicate targets and negative indices for every op.
pub fn case<T: RefElem>(op: Op, rng: &mut Rng) -> Case<T> {
    match op {
        Op::Elements => {
            let indices = (0..18).map(|_| rng.range(-5, 5)).collect();
            Case { op, data: rng.values(20), shape: vec![5, 4], indices, index_shape: vec![6, 3],
                   updates: rng.values(18), update_shape: vec![6, 3], axis: 0 }
        }
        Op::Rows => Case { op, data: rng.values(30), shape: vec![3, 5, 2], indices: vec![4, -1, 0, 2, 4, 4],
                           index_shape: vec![3, 2], updates: rng.values(36), update_shape: vec![3, 3, 2, 2],
                           axis: 1 },
        Op::Nd => Case { op, data: rng.values(24), shape: vec![4, 3, 2], indices: vec![0, 1, 3, -1, 0, 1, 2, 2],
                         index_shape: vec![4, 2], updates: rng.values(8), update_shape: vec![4, 2], axis: 0 },
    }
}

pub fn assert_close<T: RefElem>(got: &[T], want: &[T], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        assert!(T::close(g, w), "{what}: element {i}: got {g:?}, want {w:?}\n got {got:?}\nwant {want:?}");
    }
}
