//! The matmul tune as a record in the device's disk cache, so that later runs on the same
//! adapter, driver and build reuse its choice instead of timing every kernel again.
//!
//! Text, one fact per line: `chosen KERNEL`, `shape M N K`, `elapsed_us T`, `candidate KERNEL
//! GFLOPS` (each), `rejected KERNEL REASON` (each); kernels as `naive`, `tiled`, `sgb32`. A
//! record that does not parse is ignored (the device then tunes again and rewrites it).

use super::{MatmulKernel, MatmulTuning};
use std::time::Duration;

/// The record's name in the disk cache.
pub(super) const RECORD: &str = "matmul-tune";

fn kernel_name(k: MatmulKernel) -> String {
    match k {
        MatmulKernel::Naive => "naive".into(),
        MatmulKernel::Tiled => "tiled".into(),
        MatmulKernel::SubgroupBroadcast { rows } => format!("sgb{rows}"),
    }
}

fn parse_kernel(s: &str) -> Option<MatmulKernel> {
    match s {
        "naive" => Some(MatmulKernel::Naive),
        "tiled" => Some(MatmulKernel::Tiled),
        _ => Some(MatmulKernel::SubgroupBroadcast {
            rows: s.strip_prefix("sgb")?.parse().ok()?,
        }),
    }
}

pub(super) fn encode(t: &MatmulTuning) -> String {
    let (m, n, k) = t.shape;
    let mut s = format!(
        "chosen {}\nshape {m} {n} {k}\nelapsed_us {}\n",
        kernel_name(t.chosen),
        t.elapsed.as_micros()
    );
    for (kernel, gflops) in &t.candidates {
        s += &format!("candidate {} {gflops}\n", kernel_name(*kernel));
    }
    for (kernel, why) in &t.rejected {
        // One line per fact: a reason's own line breaks become spaces.
        s += &format!(
            "rejected {} {}\n",
            kernel_name(*kernel),
            why.replace('\n', " ")
        );
    }
    s
}

/// The tuning a record holds (`from_cache` set), or `None` if it does not parse.
pub(super) fn decode(bytes: &[u8]) -> Option<MatmulTuning> {
    let text = std::str::from_utf8(bytes).ok()?;
    let (mut chosen, mut shape, mut elapsed) = (None, None, None);
    let (mut candidates, mut rejected) = (Vec::new(), Vec::new());
    for line in text.lines() {
        let (what, rest) = line.split_once(' ')?;
        match what {
            "chosen" => chosen = Some(parse_kernel(rest)?),
            "shape" => {
                let v: Vec<usize> = rest
                    .split(' ')
                    .map(|x| x.parse().ok())
                    .collect::<Option<_>>()?;
                if let [m, n, k] = v[..] {
                    shape = Some((m, n, k));
                } else {
                    return None;
                }
            }
            "elapsed_us" => elapsed = Some(Duration::from_micros(rest.parse().ok()?)),
            "candidate" => {
                let (k, g) = rest.split_once(' ')?;
                candidates.push((parse_kernel(k)?, g.parse::<f64>().ok()?));
            }
            "rejected" => {
                let (k, why) = rest.split_once(' ')?;
                rejected.push((parse_kernel(k)?, why.to_string()));
            }
            _ => return None,
        }
    }
    Some(MatmulTuning {
        chosen: chosen?,
        candidates,
        shape: shape?,
        elapsed: elapsed?,
        rejected,
        from_cache: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tune_round_trips_and_damage_is_none() {
        let t = MatmulTuning {
            chosen: MatmulKernel::SubgroupBroadcast { rows: 16 },
            candidates: vec![
                (MatmulKernel::Tiled, 1.5),
                (MatmulKernel::SubgroupBroadcast { rows: 16 }, 29.25),
            ],
            shape: (512, 512, 512),
            elapsed: Duration::from_micros(987_654),
            rejected: vec![(
                MatmulKernel::SubgroupBroadcast { rows: 8 },
                "3 of\n4 differ".into(),
            )],
            from_cache: false,
        };
        let back = decode(encode(&t).as_bytes()).unwrap();
        assert!(back.from_cache);
        assert_eq!(back.chosen, t.chosen);
        assert_eq!(back.candidates, t.candidates);
        assert_eq!(back.shape, t.shape);
        assert_eq!(back.elapsed, t.elapsed);
        assert_eq!(back.rejected[0].1, "3 of 4 differ");
        for bad in [
            "",
            "chosen sgbx\nshape 1 2 3\nelapsed_us 1\n",
            "chosen tiled\nshape 1 2\nelapsed_us 1\n",
            "chosen tiled\nwhat 1\n",
        ] {
            assert!(decode(bad.as_bytes()).is_none(), "{bad:?}");
        }
    }
}
