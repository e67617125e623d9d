//! Fitting the network ([`crate::eval::net`]) on top of the embedded learned weights: the
//! linear score of each position is held, and the network learns what it leaves of the label
//! (a share of the game's result and the rest the players' search score, as the weights'
//! fit does). Every 20th game is held out to measure it: positions of one game share its
//! result, so a held-out figure by positions flatters a fit with this many weights.

use super::{Data, OFF_LINE, Passes, best_scale, log_loss, sigmoid as sigmoid64};
use crate::eval::{learned, net};
use doska_rules::variant::Variant;
use doska_rules::{Color, Position};

/// How a network is fitted.
#[derive(Clone, Copy, Debug)]
pub struct NetPlan {
    /// Passes over the positions.
    pub passes: Passes,
    /// The share of each position's label that is its game's result; the rest is its
    /// players' search score, turned into a chance of winning by the scale that best turns
    /// those scores into the results.
    pub result_share: f64,
    /// Seed of the starting weights and of the order of the positions.
    pub seed: u64,
}

/// What fitting a network found.
#[derive(Debug)]
pub struct NetFit {
    /// The weights (their `scale`: hundredths of a man a unit of the logistic's argument, the
    /// scale that best turns the embedded weights' scores into the results).
    pub weights: net::Weights,
    /// Log loss on the positions of the held-out games: the embedded weights alone and with
    /// the network.
    pub held_out: (f64, f64),
    /// The same on the positions fitted.
    pub train: (f64, f64),
    /// Positions fitted and held out.
    pub counts: (usize, usize),
}

/// Each position's inputs and what it is fitted to.
struct Rows {
    /// The inputs that are on, both views back to back (`start[2i]..start[2i + 1]` White's,
    /// then Black's).
    on: Vec<u16>,
    start: Vec<usize>,
    /// The embedded weights' score from White's view, in units of the logistic's argument.
    base: Vec<f32>,
    target: Vec<f32>,
    result: Vec<f32>,
}

impl Rows {
    fn view(&self, i: usize, c: usize) -> &[u16] {
        &self.on[self.start[2 * i + c]..self.start[2 * i + c + 1]]
    }

    /// The network's output for position `i` (White's view minus Black's).
    fn output(&self, w: &net::Weights, i: usize, sums: &mut [[f32; net::HIDDEN]; 2]) -> f32 {
        let [white, black] = sums;
        w.view(self.view(i, 0), white) - w.view(self.view(i, 1), black)
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Fits a network for rule set `v` to the positions of `data` that lie on the games' lines
/// (the walks off them have no result); `progress` hears each pass and its held-out loss.
pub fn fit_net(
    v: Variant,
    data: &Data,
    plan: &NetPlan,
    progress: impl Fn(usize, f64),
) -> Result<NetFit, String> {
    let evaluator = learned::evaluator(v).ok_or_else(|| {
        format!("the build has no learned weights for {v}, so there is nothing to fit a network on top of")
    })?;
    if data.fens.len() != data.len() {
        return Err("a network is fitted to draughts positions (Ugolki's are not kept)".into());
    }
    let lines: Vec<usize> = (0..data.len()).filter(|&i| data.label[i] != OFF_LINE).collect();
    let held = |i: usize| data.game[i] % 20 == 19;
    // Both sets as indexes into `lines` (and the rows built from them).
    let (fitted, held_out): (Vec<usize>, Vec<usize>) =
        (0..lines.len()).partition(|&k| !held(lines[k]));
    if fitted.is_empty() || held_out.is_empty() {
        return Err(format!(
            "{} positions of {} games: too few to fit a network and hold every 20th game out",
            lines.len(),
            data.results.iter().sum::<usize>()
        ));
    }
    // The embedded weights' scores from White's view, and the scales that best turn them and
    // the players' search scores into the results.
    let mut scores = Vec::with_capacity(lines.len());
    let mut rows =
        Rows { on: Vec::new(), start: vec![0], base: vec![], target: vec![], result: vec![] };
    for &i in &lines {
        let pos = Position::from_fen(v, &data.fens[i]).map_err(|e| e.to_string())?;
        let score = evaluator.evaluate(&pos);
        scores.push(if pos.turn() == Color::White { score } else { -score } as f64);
        for c in [Color::White, Color::Black] {
            net::visit_view(&pos, c, |k| rows.on.push(k as u16));
            rows.start.push(rows.on.len());
        }
    }
    let loss_of = |set: &[usize], p: &dyn Fn(usize) -> f64| {
        log_loss(set.iter().map(|&k| (p(k), data.label[lines[k]] as f64)))
    };
    let base_scale = best_scale(5000.0, |s| loss_of(&fitted, &|k| sigmoid64(scores[k] / s)));
    let search_scale = best_scale(20_000.0, |s| {
        loss_of(&fitted, &|k| sigmoid64(data.searched[lines[k]] as f64 / s))
    });
    for (k, &i) in lines.iter().enumerate() {
        let result = data.label[i] as f64;
        let searched = sigmoid64(data.searched[i] as f64 / search_scale);
        rows.base.push((scores[k] / base_scale) as f32);
        rows.target
            .push((plan.result_share * result + (1.0 - plan.result_share) * searched) as f32);
        rows.result.push(data.label[i]);
    }
    let mut w = net::Weights::random(v, plan.seed ^ 0x9e37_79b9_7f4a_7c15);
    w.scale = base_scale as f32;
    let measure = |w: &net::Weights, set: &[usize], limit: usize| {
        let mut sums = [[0f32; net::HIDDEN]; 2];
        let with = log_loss(set.iter().take(limit).map(|&k| {
            let p = sigmoid(rows.base[k] + rows.output(w, k, &mut sums));
            (p as f64, rows.result[k] as f64)
        }));
        let alone = log_loss(
            set.iter().take(limit).map(|&k| (sigmoid(rows.base[k]) as f64, rows.result[k] as f64)),
        );
        (alone, with)
    };
    // Adam over shuffled mini-batches; the gradient of the hidden weights is summed densely.
    const BATCH: usize = 256;
    let len = w.hidden.len();
    let mut grad = vec![0f32; len + 2 * net::HIDDEN];
    let (mut m, mut s) = (vec![0f32; grad.len()], vec![0f32; grad.len()]);
    let (b1, b2, first_step, eps) = (0.9f32, 0.999f32, 0.002f32, 1e-8f32);
    let mut order = fitted.clone();
    let steps = plan.passes.epochs * order.len().div_ceil(BATCH);
    let mut step = 0i32;
    let mut rng = plan.seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1;
    let mut sums = [[0f32; net::HIDDEN]; 2];
    for epoch in 0..plan.passes.epochs {
        for i in (1..order.len()).rev() {
            rng = crate::node::mix(rng.wrapping_add(i as u64));
            order.swap(i, (rng % (i as u64 + 1)) as usize);
        }
        for batch in order.chunks(BATCH) {
            for &k in batch {
                let err = sigmoid(rows.base[k] + rows.output(&w, k, &mut sums)) - rows.target[k];
                for (c, sign) in [(0, err), (1, -err)] {
                    for h in 0..net::HIDDEN {
                        let sum = sums[c][h];
                        grad[len + net::HIDDEN + h] += sign * sum.clamp(0.0, 1.0);
                        if sum > 0.0 && sum < 1.0 {
                            let d = sign * w.out[h];
                            grad[len + h] += d;
                            for &i in rows.view(k, c) {
                                grad[i as usize * net::HIDDEN + h] += d;
                            }
                        }
                    }
                }
            }
            step += 1;
            let lr = first_step * plan.passes.schedule.share(step as usize, steps) as f32;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            for (j, g) in grad.iter_mut().enumerate() {
                let g1 = *g / batch.len() as f32;
                *g = 0.0;
                m[j] = b1 * m[j] + (1.0 - b1) * g1;
                s[j] = b2 * s[j] + (1.0 - b2) * g1 * g1;
                let delta = lr * (m[j] / c1) / ((s[j] / c2).sqrt() + eps);
                match j {
                    j if j < len => w.hidden[j] -= delta,
                    j if j < len + net::HIDDEN => w.bias[j - len] -= delta,
                    j => w.out[j - len - net::HIDDEN] -= delta,
                }
            }
        }
        progress(epoch + 1, measure(&w, &held_out, usize::MAX).1);
    }
    Ok(NetFit {
        held_out: measure(&w, &held_out, usize::MAX),
        train: measure(&w, &fitted, usize::MAX),
        counts: (fitted.len(), held_out.len()),
        weights: w,
    })
}
