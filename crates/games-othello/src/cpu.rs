//! Which compiled copy of the random playout and of the endgame search this processor runs,
//! decided once per process.
//!
//! Plain x86-64 builds target the 2003 baseline: no AVX2, no POPCNT, no BMI2. The playout and
//! the endgame search are also compiled for processors that have them, and picked at run time:
//! the code is the same (`OthelloBoard::playout`, the methods of `endgame::Search`), only the
//! instructions differ. The playout's copies are written by hand (`board/playout.rs`); a
//! recursive search's by [`for_each_kernel!`].

/// A compiled copy of the playout.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kernel {
    /// The code as the build's target allows.
    Portable,
    /// AVX2, BMI2 and POPCNT: the four direction pairs of the move generator and of the flips in one
    /// 256-bit register, one instruction per popcount.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// As `Avx2`, and BMI2's `pdep` to find the `k`-th legal move in one instruction.
    #[cfg(target_arch = "x86_64")]
    Avx2Pdep,
}

impl Kernel {
    /// The fastest copy this processor can run.
    #[inline]
    pub(crate) fn best() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            use std::sync::OnceLock;
            static BEST: OnceLock<Kernel> = OnceLock::new();
            *BEST.get_or_init(|| Kernel::available().pop().unwrap_or(Kernel::Portable))
        }
        #[cfg(not(target_arch = "x86_64"))]
        Kernel::Portable
    }

    /// Every copy this processor can run, slowest first.
    pub(crate) fn available() -> Vec<Kernel> {
        #[allow(unused_mut)]
        let mut kernels = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        // Every feature that the `Avx2` copies enable: `avx2,bmi2,popcnt`.
        if std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("bmi2")
        {
            kernels.push(Kernel::Avx2);
            if fast_pdep() {
                kernels.push(Kernel::Avx2Pdep);
            }
        }
        kernels
    }
}

/// The type of the copy compiled for the target as it is ([`Kernel::Portable`]), for
/// [`for_each_kernel!`].
pub(crate) enum Portable {}

/// The type of the copy compiled for AVX2, BMI2 and POPCNT ([`Kernel::Avx2`] and
/// [`Kernel::Avx2Pdep`]), for [`for_each_kernel!`].
#[cfg(target_arch = "x86_64")]
pub(crate) enum Avx2 {}

/// Writes the methods of an `impl` block once and compiles them once for each kernel: for
/// [`Portable`] as the build's target allows, and for [`Avx2`] with
/// `#[target_feature(enable = "avx2,bmi2,popcnt")]` on every method.
///
/// For a recursive search, where inlining cannot carry the features into the callees (a
/// recursive function is not inlined: its own attributes decide its instructions). Each copy's
/// methods call the same copy's methods (`self.negamax(..)` in the `Avx2` copy is the `Avx2`
/// copy), safely, as functions with the same features. The endgame search (`endgame.rs`) is
/// the example; a midgame alpha-beta search would do the same:
///
/// 1. A state type with a kernel parameter, say `struct Midgame<'a, K>`, holding (or
///    dereferencing to) what the search reads.
/// 2. Its methods in `for_each_kernel! { impl<K> Midgame<'_, K> { .. } }`: inside, `K` is
///    [`Portable`] in one copy and [`Avx2`] in the other. Methods may take const generic
///    parameters (`fn negamax<const N: usize>(..)`), no others and no `where` clause, and
///    `#[inline]` at most (`#[inline(always)]` is refused with target features).
/// 3. Helpers that are not recursive may stay free functions marked `#[inline(always)]`: they
///    compile into each copy that calls them (as `movegen`'s do).
/// 4. One entry from portable code, matching on [`Kernel`] (an `Endgame`'s `kernel`, from
///    [`Kernel::best`]), with one `unsafe` call of the `Avx2` copy, a `// SAFETY:` comment and
///    `#[allow(unsafe_code)]` on it (as `Endgame::root`).
macro_rules! for_each_kernel {
    (
        impl<$k:ident> $self_ty:ty {
            $(
                $(#[$meta:meta])*
                fn $name:ident $(<$(const $g:ident: $gt:ty),+>)? ($($params:tt)*)
                    $(-> $ret:ty)? $body:block
            )*
        }
    ) => {
        const _: () = {
            type $k = $crate::cpu::Portable;
            impl $self_ty {
                $(
                    $(#[$meta])*
                    fn $name $(<$(const $g: $gt),+>)? ($($params)*) $(-> $ret)? $body
                )*
            }
        };
        #[cfg(target_arch = "x86_64")]
        const _: () = {
            type $k = $crate::cpu::Avx2;
            impl $self_ty {
                $(
                    $(#[$meta])*
                    #[target_feature(enable = "avx2,bmi2,popcnt")]
                    fn $name $(<$(const $g: $gt),+>)? ($($params)*) $(-> $ret)? $body
                )*
            }
        };
    };
}
pub(crate) use for_each_kernel;

/// Whether `pdep` takes a few cycles here, as on Intel processors and AMD's from Zen 3
/// (family 19h). Zen 1 and Zen 2 run it in microcode, tens of times slower, and there the
/// plain loop over the set bits is faster.
#[cfg(target_arch = "x86_64")]
fn fast_pdep() -> bool {
    use std::arch::x86_64::__cpuid;
    let vendor = __cpuid(0);
    let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
    // Family: the base family, plus the extended family when the base is 15.
    let signature = __cpuid(1).eax;
    let base = (signature >> 8) & 0xf;
    let family = if base == 0xf {
        base + ((signature >> 20) & 0xff)
    } else {
        base
    };
    !amd || family >= 0x19
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_kernel_is_the_fastest_available_and_portable_is_always_there() {
        let available = Kernel::available();
        assert_eq!(available[0], Kernel::Portable);
        assert_eq!(Some(&Kernel::best()), available.last());
    }
}
