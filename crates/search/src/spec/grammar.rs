//! The grammar of agent specs: `NAME` or `NAME:KEY=VALUE,KEY=VALUE,...`, split, each key
//! dispatched to the part of the agent that owns it, and the defaults of an agent given no
//! budget.

use game_core::WinDrawLoss;

use super::registry::{Entry, REWARD_KEYS, names, set_reward};
use super::{AgentSpec, Algorithm, SpecError};
use crate::Budget;
use crate::setting::{Setting, SettingError};

/// Split (the name, then `key=value` parts), dispatch (each key to the part of the agent that
/// owns it), defaults (the budget of an agent given none).
pub(super) fn parse(text: &str, own: &[&str]) -> Result<AgentSpec, SpecError> {
    let text = text.trim();
    let spec = || text.to_owned();
    let (name, rest) = text.split_once(':').unwrap_or((text, ""));
    let name = name.trim().to_ascii_lowercase();
    let own_name = own.iter().find(|o| o.eq_ignore_ascii_case(&name));
    let Some(Entry {
        name,
        mut algorithm,
        keys,
    }) = Entry::named(&name).or_else(|| {
        own_name.map(|&o| Entry {
            name: o,
            algorithm: Algorithm::Own(o.to_owned()),
            keys: Vec::new(),
        })
    })
    else {
        let expected = if own.is_empty() {
            names(" or ")
        } else {
            format!("{}, or the game's own {}", names(", "), own.join(", "))
        };
        return Err(SpecError::UnknownAgent {
            spec: spec(),
            name,
            expected,
        });
    };
    let own_agent = matches!(algorithm, Algorithm::Own(_));
    let mut settings = Vec::new();
    let mut budget = Budget::default();
    let mut seed = None;
    let mut reward = WinDrawLoss::default();
    let mut seen: Vec<String> = Vec::new();
    for part in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let syntax = |reason: &str| SpecError::Syntax {
            spec: spec(),
            part: part.to_owned(),
            reason: reason.to_owned(),
        };
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| syntax("write KEY=VALUE"))?;
        let (key, value) = (key.trim().to_ascii_lowercase(), value.trim());
        let unknown = || SpecError::UnknownKey {
            spec: spec(),
            agent: name.to_owned(),
            key: key.clone(),
            expected: keys.join(", "),
        };
        let shared = Budget::KEYS.contains(&key.as_str()) || key == "seed";
        if own_agent && !shared {
            if settings.iter().any(|(k, _)| *k == key) {
                return Err(syntax("the key is given twice"));
            }
            settings.push((key, value.to_owned()));
            continue;
        }
        if !own_agent && !keys.contains(&key.as_str()) {
            return Err(unknown());
        }
        let canonical = if key == "playouts" {
            "iterations"
        } else {
            &key
        };
        if seen.iter().any(|k| k == canonical) {
            return Err(syntax("the key is given twice"));
        }
        seen.push(canonical.to_owned());
        let set = if Budget::KEYS.contains(&key.as_str()) {
            budget.set(&key, value)
        } else if key == "seed" {
            Setting::new(&key, value).count().map(|s| seed = Some(s))
        } else if REWARD_KEYS.contains(&key.as_str()) {
            set_reward(&mut reward, &key, value)
        } else {
            algorithm.set(&key, value)
        };
        set.map_err(|error| match error {
            SettingError::UnknownKey { .. } => unknown(),
            SettingError::BadValue {
                key,
                value,
                expected,
            } => SpecError::BadValue {
                spec: spec(),
                key,
                value,
                expected,
            },
        })?;
    }
    let counted = budget.iterations.is_some() || budget.time.is_some();
    match &mut algorithm {
        Algorithm::AlphaBeta(config) if !seen.iter().any(|k| k == "depth") && !counted => {
            config.max_depth = 8;
        }
        Algorithm::Flat(_) if !counted => budget.iterations = Some(1_000),
        Algorithm::Uct(..) if !counted => budget.iterations = Some(10_000),
        Algorithm::Solver { .. } if budget.time.is_none() => {
            budget.time = Some(crate::exact::DEFAULT_TIME);
        }
        _ => {}
    }
    Ok(AgentSpec {
        text: text.to_owned(),
        algorithm,
        budget,
        seed,
        reward,
        settings,
        cores: None,
    })
}
