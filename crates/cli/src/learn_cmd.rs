//! `doska learn`: fits the learned draughts or Ugolki evaluation to doska's own games and
//! writes the weights file the build embeds (crates/engine/weights/).

use anyhow::{Context, Result, bail};
use clap::Args;
use doska_engine::eval::{learned, net, ugolki_learned};
use doska_engine::learn::{self, Selfplay};
use doska_engine::{Level, Terms, egdb};
use doska_rules::RuleSet;
use std::time::Instant;

/// `doska learn`.
#[derive(Debug, Args)]
pub struct LearnArgs {
    /// Rule set (as for `doska perft`) or Ugolki preset.
    #[arg(long)]
    variant: String,
    /// Self-play games to learn from.
    #[arg(long, default_value_t = 20_000)]
    games: usize,
    /// Nodes a move in those games.
    #[arg(long, default_value_t = 2_000)]
    nodes: u64,
    /// Random plies at the start of each game: from this many to twice as many.
    #[arg(long, default_value_t = 4)]
    random_plies: u32,
    /// Threads to play on.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Passes over the positions when fitting.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// How the fit's step size moves over the passes: `cosine` falls to nothing by the last
    /// pass, so the weights settle (it fits better); `constant` keeps it (the files embedded
    /// before the cosine were made so, and reproduce with it).
    #[arg(long, value_enum, default_value_t = ScheduleArg::Cosine)]
    schedule: ScheduleArg,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The players use the evaluation built in (the learned one where the build has weights),
    /// not the hand-set terms: for a second round of learning from better games.
    #[arg(long)]
    with_learned: bool,
    /// The share of each position's label that is its game's result (0 to 1); the rest is the
    /// players' search score there, turned into a chance of winning (`--search-scale`).
    #[arg(long, default_value_t = 1.0)]
    result_share: f64,
    /// Draughts: how the players' search scores are turned into chances of winning where
    /// `--result-share` is under 1. `hand`: by the hand-set evaluation's scale (every embedded
    /// file before the sixteenth session); `searched`: by the scale that best turns the search
    /// scores themselves into the games' results, for players that searched with learned
    /// weights of another spread than the hand-set terms'.
    #[arg(long, value_enum, default_value_t = SearchScaleArg::Hand)]
    search_scale: SearchScaleArg,
    /// Draughts: hold the pieces' worth (a man's and a king's on every square, the king
    /// count and the material shares) at the hand-set values and fit only the rest.
    #[arg(long)]
    hand_set_material: bool,
    /// Draughts: also fit positions off the games' lines: from every game position a walk of
    /// random moves (`--explore-plies`), labelled by a hand-set search of this many nodes
    /// (0: none).
    #[arg(long, default_value_t = 0)]
    explore_nodes: u64,
    /// The most random plies of each walk off the games' lines (1 or more).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..))]
    explore_plies: u32,
    /// Walks off the games' lines from each game position (1 or more).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    explore_walks: u32,
    /// Draughts: search the positions again, each at this many nodes with the players'
    /// evaluation (`--with-learned`: the build's learned one), and fit to those scores instead
    /// of the players' (0: keep the players'). Labels from a deeper search than the games were
    /// played at. Done before the walks off the games' lines (`--explore-nodes`) and before
    /// `--save-positions`, which then saves the new scores.
    #[arg(long, default_value_t = 0)]
    rescore_nodes: u64,
    /// With `--rescore-nodes`: keep and search one position in this many (1: all), in the
    /// order they were played.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    rescore_every: u64,
    /// Draughts: a weight whose feature occurs fewer times than this in the fitted positions
    /// (each side's view counting apart) is held at zero (0: every weight is fitted). A
    /// pattern state that a handful of positions show is fitted to their noise, and the search
    /// seeks such states out.
    #[arg(long, default_value_t = 0)]
    min_count: usize,
    /// Draughts: the units of the weights written. `man`: a man on a full board is worth
    /// 100 (how every embedded file was made); `hand`: a score means the chance of winning the
    /// same hand-set score means. Neither suits every fit: a fit whose man on a full board is
    /// worth little blows up in `man`, one whose hand-set scale is wide blows up in `hand`
    /// (the warning on weights cut to the file's range says when). `spread`: the learned
    /// scores spread over the positions as widely as the hand-set ones (Poddavki, where a
    /// man's worth is no unit and the hand-set scores hardly predict the results).
    #[arg(long, value_enum, default_value_t = UnitsArg::Man)]
    units: UnitsArg,
    /// Draughts: also write the positions fitted to this file (FEN, search score, result,
    /// game; the walks off the games' lines with `-` for a result), so that other fits can be
    /// made from the same games (`--positions`).
    #[arg(long)]
    save_positions: Option<std::path::PathBuf>,
    /// Draughts: fit to the positions in this file (`--save-positions` wrote it) instead of
    /// playing games; the self-play options are then not used. Given more than once: every
    /// file's positions (each file's games numbered after the one before's).
    #[arg(long)]
    positions: Vec<std::path::PathBuf>,
    /// Draughts: fit the network that the build's learned evaluation adds where it has one
    /// (crates/engine/weights/<variant>.net) instead of the weights: on top of the build's
    /// embedded weights, to the same labels (`--result-share`; the search scores read at the
    /// scale that best turns them into the results). Every 20th game is held out to measure
    /// it. The weights' own options (`--units`, `--min-count`, `--hand-set-material`,
    /// `--search-scale`) are the weights' fit's and do not apply.
    #[arg(long)]
    net: bool,
    /// Draughts: a folder of endgame databases (`doska egdb build` writes them). The rule
    /// set's database there is probed by the players' searches, and each game ends at its
    /// first position the database holds, with that position's exact result as every earlier
    /// position's label (a win the draw rules could still end as a draw is played on). With
    /// `--positions`, the searches of `--rescore-nodes` and `--explore-nodes` probe it. Read
    /// only when given (every embedded file was made without one).
    #[arg(long, value_name = "DIR")]
    egdb: Option<std::path::PathBuf>,
    /// Where to write the weights (crates/engine/weights/<variant>.eval is what the build
    /// embeds; with `--net`, the network: <variant>.net).
    #[arg(long)]
    out: std::path::PathBuf,
}

/// `--units`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum UnitsArg {
    Hand,
    Man,
    Spread,
}

/// `--search-scale`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum SearchScaleArg {
    Hand,
    Searched,
}

/// `--schedule`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum ScheduleArg {
    Constant,
    Cosine,
}

/// Plays the games, fits the weights, writes them and reports what the fit measured.
pub fn learn(a: &LearnArgs) -> Result<()> {
    let rule_set = a.variant.parse::<RuleSet>()?;
    // The number of weights to fit (and, for Ugolki, whether the rule set is a preset).
    let len = match rule_set {
        RuleSet::Draughts(v) => learned::layout(v).len(),
        RuleSet::Ugolki(u) => ugolki_learned::layout(&u)
            .ok_or_else(ugolki_learned::not_a_preset)
            .map_err(anyhow::Error::msg)?
            .len(),
    };
    // Refused now rather than after the games are played.
    crate::check_out_folder("--out", &a.out)?;
    if a.hand_set_material && matches!(rule_set, RuleSet::Ugolki(_)) {
        bail!(
            "--hand-set-material is for draughts: Ugolki pieces are never taken, so it has no material to hold"
        );
    }
    if a.explore_nodes > 0 && matches!(rule_set, RuleSet::Ugolki(_)) {
        bail!(
            "--explore-nodes is for draughts: Ugolki's search meets no state its games lack (nothing is taken or crowned)"
        );
    }
    if a.rescore_nodes > 0 && matches!(rule_set, RuleSet::Ugolki(_)) {
        bail!(
            "--rescore-nodes is for draughts: Ugolki positions are not kept as FEN to search again"
        );
    }
    if a.rescore_every > 1 && a.rescore_nodes == 0 {
        bail!(
            "--rescore-every {} keeps one position in so many for --rescore-nodes: give --rescore-nodes too",
            a.rescore_every
        );
    }
    if a.net {
        match rule_set {
            RuleSet::Ugolki(_) => bail!(
                "--net is for draughts: the network sits on top of a draughts rule set's learned weights"
            ),
            RuleSet::Draughts(v) if learned::evaluator(v).is_none() => bail!(
                "--net fits a network on top of the build's learned weights, and the build has none for {v}"
            ),
            _ => {}
        }
        if a.min_count > 0 || a.hand_set_material {
            bail!(
                "--min-count and --hand-set-material are for fitting the weights; with --net they do not apply (leave them out)"
            );
        }
    }
    if a.min_count > 1 && matches!(rule_set, RuleSet::Ugolki(_)) {
        bail!(
            "--min-count is for draughts: Ugolki's few weights (piece tables, pieces at home) are each seen in most positions"
        );
    }
    if a.hand_set_material && matches!(rule_set, RuleSet::Draughts(v) if v.rules().giveaway) {
        bail!(
            "--hand-set-material holds a man at +100, and in {} the pieces are worth less than nothing: fit them (leave the option out)",
            a.variant
        );
    }
    if let (Some(file), RuleSet::Ugolki(_)) =
        (a.save_positions.as_ref().or(a.positions.first()), rule_set)
    {
        bail!(
            "{}: saved positions are for draughts (Ugolki positions are not kept as FEN)",
            file.display()
        );
    }
    if let Some(file) = &a.save_positions {
        crate::check_out_folder("--save-positions", file)?;
    }
    if !(0.0..=1.0).contains(&a.result_share) {
        bail!(
            "--result-share {}: a share from 0 (the search alone) to 1 (the result alone)",
            a.result_share
        );
    }
    if let Some(dir) = &a.egdb {
        let RuleSet::Draughts(v) = rule_set else {
            bail!("--egdb is for draughts: Ugolki has no endgame databases");
        };
        if !a.positions.is_empty() && a.rescore_nodes == 0 && a.explore_nodes == 0 {
            bail!(
                "--egdb is read by the games' searches, and with --positions no game is played: give --rescore-nodes or --explore-nodes to search with it, or leave it out"
            );
        }
        // Read once and kept for the life of the process, as the other commands do.
        egdb::install(Box::leak(Box::new(crate::egdb_cmd::open(dir, v)?)));
    }
    let terms = Level::Insane.recipe().terms;
    let terms = if a.with_learned { terms } else { Terms { learned: false, ..terms } };
    let plan = Selfplay {
        games: a.games,
        nodes: a.nodes,
        random_plies: a.random_plies,
        threads: a.threads,
        seed: a.seed,
        terms,
    };
    let t = Instant::now();
    let progress = |n: usize| {
        if n.is_multiple_of(100) || n == a.games {
            eprint!("\r{n}/{} games", a.games);
        }
    };
    let mut data = match (rule_set, &a.positions[..]) {
        (RuleSet::Draughts(v), files) if !files.is_empty() => {
            let mut data = learn::Data::default();
            for file in files {
                let text = std::fs::read_to_string(file)
                    .with_context(|| format!("reading {}", file.display()))?;
                data.append_games(
                    learn::Data::load(v, &text)
                        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?,
                );
            }
            let [w, d, b] = data.results;
            let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
            outln!(
                "{}: {} games ({w} won by white, {d} drawn, {b} by black), {} positions, read from {} in {:.0} s",
                a.variant,
                w + d + b,
                data.len(),
                names.join(", "),
                t.elapsed().as_secs_f64()
            );
            data
        }
        (RuleSet::Draughts(v), _) => learn::selfplay(v, &plan, progress),
        (RuleSet::Ugolki(u), _) => {
            learn::selfplay_ugolki(u, &plan, progress).map_err(anyhow::Error::msg)?
        }
    };
    let [w, d, b] = data.results;
    if a.positions.is_empty() {
        eprintln!();
        outln!(
            "{}: {} games ({w} won by white, {d} drawn, {b} by black) at {} nodes a move, {} positions, in {:.0} s",
            a.variant,
            a.games,
            a.nodes,
            data.len(),
            t.elapsed().as_secs_f64()
        );
    }
    if let (RuleSet::Draughts(v), n @ 1..) = (rule_set, a.rescore_nodes) {
        let t = Instant::now();
        let plan =
            learn::Rescore { nodes: n, every: a.rescore_every as usize, threads: a.threads, terms };
        let total = data.len().div_ceil(plan.every);
        data = learn::rescore(v, &data, &plan, |k| eprint!("\r{k}/{total} positions searched"));
        eprintln!();
        outln!(
            "{} positions (one in {}) searched again at {n} nodes with the {} evaluation, in {:.0} s",
            data.len(),
            a.rescore_every,
            if a.with_learned { "built-in" } else { "hand-set" },
            t.elapsed().as_secs_f64()
        );
    }
    if let (RuleSet::Draughts(v), n @ 1..) = (rule_set, a.explore_nodes) {
        let t = Instant::now();
        let explore = learn::Explore {
            nodes: n,
            plies: a.explore_plies,
            walks: a.explore_walks as usize,
            threads: a.threads,
        };
        let total = data.len() * explore.walks;
        let off = learn::explore(v, &data, &explore, |k| eprint!("\r{k}/{total} walks"));
        eprintln!();
        outln!(
            "{} positions off the games' lines ({} from each game position, by walks of up to {} random plies, each searched at {n} nodes), in {:.0} s",
            off.len(),
            a.explore_walks,
            a.explore_plies,
            t.elapsed().as_secs_f64()
        );
        data.append(off);
    }
    if let (Some(file), RuleSet::Draughts(v)) = (&a.save_positions, rule_set) {
        let text = data.save(v).map_err(anyhow::Error::msg)?;
        std::fs::write(file, text).with_context(|| format!("writing {}", file.display()))?;
        outln!(
            "wrote the positions to {} ({} bytes)",
            file.display(),
            std::fs::metadata(file)?.len()
        );
    }
    if data.len() < 1000 {
        bail!("only {} positions: too few to fit {len} weights; play more games", data.len());
    }
    let passes = learn::Passes {
        epochs: a.epochs,
        schedule: match a.schedule {
            ScheduleArg::Constant => learn::Schedule::Constant,
            ScheduleArg::Cosine => learn::Schedule::Cosine,
        },
    };
    let t = Instant::now();
    let epoch = |e: usize, loss: f64| eprint!("\repoch {e}/{}: loss {loss:.4}", a.epochs);
    if let (true, RuleSet::Draughts(v)) = (a.net, rule_set) {
        let plan = learn::NetPlan { passes, result_share: a.result_share, seed: a.seed };
        let fit = learn::fit_net(v, &data, &plan, |e, loss| {
            eprint!("\repoch {e}/{}: held-out loss {loss:.4}", a.epochs)
        })
        .map_err(anyhow::Error::msg)?;
        eprintln!();
        let ((alone, with), (train_alone, train_with)) = (fit.held_out, fit.train);
        outln!(
            "fitted a network of {} inputs and {} hidden units on top of the build's {v} weights, to {} positions, in {:.0} s: \
             log loss on the {} positions of the held-out games {with:.4} (the weights alone {alone:.4}), \
             on the rest {train_with:.4} ({train_alone:.4}); one unit of the logistic = {:.0} hundredths of a man",
            net::inputs(v),
            net::HIDDEN,
            fit.counts.0,
            t.elapsed().as_secs_f64(),
            fit.counts.1,
            fit.weights.scale,
        );
        let bytes = net::encode(v, &fit.weights);
        std::fs::write(&a.out, bytes).with_context(|| format!("writing {}", a.out.display()))?;
        outln!("wrote {} ({} bytes)", a.out.display(), std::fs::metadata(&a.out)?.len());
        return Ok(());
    }
    let (fit, bytes) = match rule_set {
        RuleSet::Draughts(v) => {
            let plan = learn::FitPlan {
                passes,
                result_share: a.result_share,
                search_scale: match a.search_scale {
                    SearchScaleArg::Hand => learn::SearchScale::HandSet,
                    SearchScaleArg::Searched => learn::SearchScale::Searched,
                },
                material: if a.hand_set_material {
                    learn::Material::HandSet
                } else {
                    learn::Material::Learned
                },
                units: match a.units {
                    UnitsArg::Hand => learn::Units::HandSet,
                    UnitsArg::Man => learn::Units::Man,
                    UnitsArg::Spread => learn::Units::Spread,
                },
                min_count: a.min_count,
            };
            let fit = learn::fit(v, &data, &plan, epoch);
            if plan.units == learn::Units::Man && fit.units != learn::Units::Man {
                eprintln!();
                outln!(
                    "a man on a full board came out worth nothing or less (the patterns carry the material), so the weights are in the hand-set evaluation's units (--units hand; --units spread is the other choice)"
                );
            }
            let bytes = learned::encode(v, &fit.weights);
            (fit, bytes)
        }
        RuleSet::Ugolki(u) => {
            let fit = learn::fit_ugolki(&u, &data, passes, a.result_share, epoch)
                .map_err(anyhow::Error::msg)?;
            let bytes = ugolki_learned::encode(&u, &fit.weights).map_err(anyhow::Error::msg)?;
            (fit, bytes)
        }
    };
    eprintln!();
    let (held, unit) = match rule_set {
        RuleSet::Draughts(_) => ("positions", "hundredths of a man"),
        RuleSet::Ugolki(_) => ("games", "tenths of a step"),
    };
    let measured = match fit.held_out {
        Some((hand, learned)) => format!(
            "log loss on held-out {held} {learned:.4} (hand-set evaluation {hand:.4}), on the rest {:.4}",
            fit.train
        ),
        None => format!(
            "log loss {:.4} on the games fitted (none held out: every 20th game is, so play 20 or more)",
            fit.train
        ),
    };
    outln!(
        "fitted {} weights in {:.0} s: {measured}; \
         one unit of the logistic = {:.0} {unit} ({:.0} for the hand-set evaluation)",
        fit.weights.len(),
        t.elapsed().as_secs_f64(),
        fit.per_unit,
        fit.scale,
    );
    if a.min_count > 1 {
        outln!(
            "{} weights held at zero: their features occur fewer than {} times in the fitted positions",
            fit.rare,
            a.min_count
        );
    }
    if let Some((man, king)) = fit.piece_means {
        outln!("a man is worth {man:.0} and a king {king:.0} on a full board");
    }
    if a.result_share < 1.0 && matches!(a.search_scale, SearchScaleArg::Searched) {
        outln!(
            "the players' search scores were read at {:.0} {unit} a unit of the logistic",
            fit.search_scale
        );
    }
    // The file holds each weight in 16 bits: a fit that leans on larger ones is not what the
    // file plays.
    let cut: Vec<usize> = (0..fit.weights.len())
        .filter(|&i| !(i16::MIN as i32..=i16::MAX as i32).contains(&fit.weights[i]))
        .collect();
    if !cut.is_empty() {
        let name = |i: usize| match &rule_set {
            RuleSet::Draughts(v) => learned::layout(*v).name(i),
            RuleSet::Ugolki(u) => ugolki_learned::layout(u).map_or(i.to_string(), |l| l.name(i)),
        };
        let limit = i16::MAX as f64 / learned::WEIGHT_UNIT as f64;
        let names: Vec<String> = cut.iter().take(6).map(|&i| name(i)).collect();
        outln!(
            "warning: {} weights are beyond the file's ±{limit:.0} {unit} and were cut to it ({}{}): \
             the file does not play what was fitted (draughts: try the other --units)",
            cut.len(),
            names.join(", "),
            if cut.len() > names.len() { ", ..." } else { "" },
        );
    }
    std::fs::write(&a.out, bytes).with_context(|| format!("writing {}", a.out.display()))?;
    outln!("wrote {} ({} bytes)", a.out.display(), std::fs::metadata(&a.out)?.len());
    Ok(())
}
