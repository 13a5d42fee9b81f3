//! Texel's method: fit the evaluation weights to game results. Each
//! position's evaluation is linear in the weights ([`Evaluator::trace`]);
//! a logistic curve `1 / (1 + 10^(-k e / 400))` turns it into an expected
//! score for White, and the weights are moved (Adam, full batch) to lower
//! the mean squared difference between that expectation and the position's
//! target: the result of the game it came from or, where an engine scored
//! the position during the game, `lambda * result + (1 - lambda) *
//! curve(score)`. `k` is fitted once, to the starting weights and the
//! results, so that the weights keep their centipawn scale (and a target
//! of scores alone, `lambda` 0, pulls the evaluation toward the engine's
//! centipawns). A ridge term
//! `l2 * sum((w - start)^2)` holds weights that few positions speak for
//! (a rare second queen) near where they started. A held-out set measures
//! the fit on positions it was not made on; the weights returned are those
//! of the epoch with the lowest held-out loss.

use crate::board::game::{with_pos, AnyPosition};
use crate::error::Error;
use crate::rules::terms::{Weights, MAX_WEIGHT, NPARAMS};
use crate::rules::variant::Variant;
use crate::search::eval::{EvalKind, Evaluator, Trace};
use rayon::prelude::*;

/// One position of a game, traced, with the game's result for White
/// (1, 1/2 or 0) and an engine's score of it, if one was recorded.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The evaluation's terms in the position.
    pub trace: Trace,
    /// White's score in the game.
    pub result: f64,
    /// An engine's score of the position in centipawns, White's view.
    pub label: Option<f64>,
}

impl Sample {
    /// What the fit aims the expectation at, under scale `k` (module text).
    #[inline]
    fn target(&self, k: f64, lambda: f64) -> f64 {
        match self.label {
            Some(cp) => lambda * self.result + (1.0 - lambda) * sigmoid(k, cp),
            None => self.result,
        }
    }
}

/// The traces of positions given by FEN, all of variant `v`; errors name
/// the FEN that does not parse.
pub fn traces(v: &Variant, fens: &[String]) -> Result<Vec<Trace>, Error> {
    let first = AnyPosition::new(v, None)?;
    with_pos!(&first, p => {
        let eval = Evaluator::new(p.tables, EvalKind::Full);
        fens.iter()
            .map(|fen| {
                let q = crate::board::position::Position::from_fen(p.tables, fen)?;
                Ok(eval.trace(&q))
            })
            .collect()
    })
}

/// What [`fit`] did.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The fitted weights (those of the best held-out epoch).
    pub weights: Weights,
    /// The logistic scale.
    pub k: f64,
    /// Training and held-out loss of the starting weights.
    pub before: (f64, f64),
    /// Training and held-out loss of the fitted weights.
    pub after: (f64, f64),
    /// The epoch of the fitted weights.
    pub best_epoch: usize,
    /// (epoch, training loss, held-out loss), every `report_every` epochs.
    pub curve: Vec<(usize, f64, f64)>,
}

/// The model's evaluation of a sample (White's view) with flat weights
/// `w` (`2 * param + phase`).
#[inline]
fn model(s: &Sample, w: &[f64]) -> f64 {
    let (m, e) = (s.trace.mg_share, s.trace.eg_share);
    s.trace.coefs.iter().map(|&(i, c)| c * (m * w[2 * i as usize] + e * w[2 * i as usize + 1])).sum()
}

#[inline]
fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// Mean squared error of the samples against `targets` under weights `w`
/// and scale `k`.
fn loss(samples: &[Sample], targets: &[f64], w: &[f64], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let partial: Vec<f64> = samples
        .par_chunks(CHUNK)
        .zip(targets.par_chunks(CHUNK))
        .map(|(ss, ts)| ss.iter().zip(ts).map(|(s, &t)| (t - sigmoid(k, model(s, w))).powi(2)).sum())
        .collect();
    partial.iter().sum::<f64>() / samples.len() as f64
}

/// Samples per unit of parallel work. Sums run over fixed chunks, in
/// order, so a fit gives the same weights bit for bit on any number of
/// threads.
const CHUNK: usize = 4096;

/// The game results of the samples.
fn results(samples: &[Sample]) -> Vec<f64> {
    samples.iter().map(|s| s.result).collect()
}

/// The scale `k` minimising the loss of weights `w` against the results
/// (golden-section search over 0.05..5).
fn fit_k(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut a, mut b) = (0.05f64, 5.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let r = results(samples);
    for _ in 0..40 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if loss(samples, &r, w, c) < loss(samples, &r, w, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// How [`fit`] runs.
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    /// Epochs of Adam.
    pub epochs: usize,
    /// Adam's step, in centipawns.
    pub rate: f64,
    /// Ridge weight per squared centipawn of change.
    pub l2: f64,
    /// Report the losses every this many epochs.
    pub report_every: usize,
    /// A parameter whose middlegame weight is brought back to its start by
    /// scaling every weight after the fit (and dividing `k` by the same
    /// factor, so the losses do not change): the fit may grow or shrink
    /// the whole evaluation when its start predicts results on another
    /// scale, and the search's margins are in centipawns of the start's
    /// scale.
    pub anchor: Option<usize>,
    /// The weight of the game result in the target of a position an
    /// engine scored (1: results only; module text).
    pub lambda: f64,
}

/// Fit the parameters `params` of `start` to `train` (see the module
/// text). Every other parameter keeps its weight. The losses reported are
/// the mean squared errors, without the ridge term.
pub fn fit(start: &Weights, params: &[usize], train: &[Sample], held: &[Sample], o: FitOptions) -> Fit {
    let FitOptions { epochs, rate, l2, report_every, anchor, lambda } = o;
    let np = NPARAMS;
    let mut w: Vec<f64> = (0..np).flat_map(|i| start.get(i)).collect();
    let w0 = w.clone();
    let k = fit_k(train, &w);
    let targets = |samples: &[Sample]| -> Vec<f64> { samples.iter().map(|s| s.target(k, lambda)).collect() };
    let (train_t, held_t) = (targets(train), targets(held));
    let before = (loss(train, &train_t, &w, k), loss(held, &held_t, &w, k));
    let mut free = vec![false; 2 * np];
    for &p in params {
        free[2 * p] = true;
        free[2 * p + 1] = true;
    }
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; 2 * np];
    let mut v = vec![0.0; 2 * np];
    let scale = k * std::f64::consts::LN_10 / 400.0;
    let n = train.len().max(1) as f64;
    let mut best = (before.1, 0, w.clone());
    let mut curve = vec![(0, before.0, before.1)];
    for epoch in 1..=epochs {
        let partial: Vec<Vec<f64>> = train
            .par_chunks(CHUNK)
            .zip(train_t.par_chunks(CHUNK))
            .map(|(ss, ts)| {
                let mut g = vec![0.0; 2 * np];
                for (s, &t) in ss.iter().zip(ts) {
                    let p = sigmoid(k, model(s, &w));
                    let d = -2.0 * (t - p) * p * (1.0 - p) * scale / n;
                    let (mg, eg) = (s.trace.mg_share, s.trace.eg_share);
                    for &(i, c) in &s.trace.coefs {
                        g[2 * i as usize] += d * c * mg;
                        g[2 * i as usize + 1] += d * c * eg;
                    }
                }
                g
            })
            .collect();
        let mut grad = vec![0.0; 2 * np];
        for g in &partial {
            grad.iter_mut().zip(g).for_each(|(x, y)| *x += y);
        }
        let t = epoch as i32;
        for j in 0..2 * np {
            if !free[j] || grad[j] == 0.0 {
                continue;
            }
            let g = grad[j] + 2.0 * l2 * (w[j] - w0[j]);
            m[j] = b1 * m[j] + (1.0 - b1) * g;
            v[j] = b2 * v[j] + (1.0 - b2) * g * g;
            let (mh, vh) = (m[j] / (1.0 - b1.powi(t)), v[j] / (1.0 - b2.powi(t)));
            w[j] = (w[j] - rate * mh / (vh.sqrt() + eps)).clamp(-MAX_WEIGHT, MAX_WEIGHT);
        }
        if epoch % report_every.max(1) == 0 || epoch == epochs {
            let (lt, lh) = (loss(train, &train_t, &w, k), loss(held, &held_t, &w, k));
            curve.push((epoch, lt, lh));
            if held.is_empty() || lh < best.0 {
                best = (lh, epoch, w.clone());
            }
        }
    }
    let (_, best_epoch, mut bw) = best;
    let mut k = k;
    let mut weights = start.clone();
    if let Some(a) = anchor.filter(|&a| bw[2 * a] != 0.0 && w0[2 * a] != 0.0) {
        let scale = w0[2 * a] / bw[2 * a];
        if scale > 0.0 {
            bw.iter_mut().for_each(|x| *x *= scale);
            k /= scale;
            for i in 0..np {
                weights.set(i, [round2(bw[2 * i]), round2(bw[2 * i + 1])]);
            }
        }
    }
    for &p in params {
        weights.set(p, [round2(bw[2 * p]), round2(bw[2 * p + 1])]);
    }
    let wf: Vec<f64> = (0..np).flat_map(|i| weights.get(i)).collect();
    // The anchor scales the evaluation and `k` together, so every
    // expectation stays: the targets stay those the fit aimed at.
    let after = (loss(train, &train_t, &wf, k), loss(held, &held_t, &wf, k));
    Fit { weights, k, before, after, best_epoch, curve }
}

/// A weight rounded to hundredths of a centipawn (short files, no
/// meaningful loss).
fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
