internal import CGSL

/// Random variates, each one GSL call (`gsl_ran_*`). Parameters are checked
/// with `precondition`: an invalid parameter is a programming error that the
/// experiment-spec validator should have caught with a readable message.
extension RandomStream {
    /// Uniform on [0, 1).
    public func uniform() -> Double { gsl_rng_uniform(rng) }

    /// Uniform on (0, 1): never exactly 0 (safe under `log`).
    public func uniformPositive() -> Double { gsl_rng_uniform_pos(rng) }

    /// Uniform on [a, b).
    public func uniform(_ a: Double, _ b: Double) -> Double {
        precondition(a <= b, "uniform(a, b) needs a <= b")
        return gsl_ran_flat(rng, a, b)
    }

    /// Uniform integer in 0..<n, without modulo bias. Needs 1 <= n <= 2^32.
    public func integer(below n: Int) -> Int {
        precondition(n >= 1 && n <= 1 << 32, "integer(below:) needs 1 <= n <= 2^32")
        return Int(gsl_rng_uniform_int(rng, UInt(n)))
    }

    /// Exponential with the given mean (1/rate); density e^{-x/mean}/mean.
    public func exponential(mean: Double) -> Double {
        precondition(mean > 0, "exponential(mean:) needs mean > 0")
        return gsl_ran_exponential(rng, mean)
    }

    /// Poisson count with the given mean.
    public func poisson(mean: Double) -> Int {
        precondition(mean >= 0, "poisson(mean:) needs mean >= 0")
        return Int(gsl_ran_poisson(rng, mean))
    }

    /// Normal (Gaussian) with mean and standard deviation (ziggurat method).
    public func normal(mean: Double = 0, sd: Double = 1) -> Double {
        precondition(sd >= 0, "normal(mean:sd:) needs sd >= 0")
        return mean + gsl_ran_gaussian_ziggurat(rng, sd)
    }

    /// Lognormal: `exp(N(mu, sigma²))`; mean e^{mu+sigma²/2}.
    public func lognormal(mu: Double, sigma: Double) -> Double {
        precondition(sigma > 0, "lognormal needs sigma > 0")
        return gsl_ran_lognormal(rng, mu, sigma)
    }

    /// Gamma with shape k and scale θ; mean kθ, variance kθ².
    public func gamma(shape: Double, scale: Double) -> Double {
        precondition(shape > 0 && scale > 0, "gamma needs shape > 0 and scale > 0")
        return gsl_ran_gamma(rng, shape, scale)
    }

    /// Weibull with scale λ and shape k: density (k/λ)(x/λ)^{k−1} e^{−(x/λ)^k}.
    public func weibull(scale: Double, shape: Double) -> Double {
        precondition(shape > 0 && scale > 0, "weibull needs shape > 0 and scale > 0")
        return gsl_ran_weibull(rng, scale, shape)
    }

    /// Pareto (type I) with shape α and scale (minimum) xₘ: x ≥ xₘ,
    /// P(X > x) = (xₘ/x)^α; mean α·xₘ/(α−1) for α > 1.
    public func pareto(shape: Double, scale: Double) -> Double {
        precondition(shape > 0 && scale > 0, "pareto needs shape > 0 and scale > 0")
        return gsl_ran_pareto(rng, shape, scale)
    }

    /// `true` with probability p.
    public func bernoulli(_ p: Double) -> Bool {
        precondition(p >= 0 && p <= 1, "bernoulli needs 0 <= p <= 1")
        return gsl_ran_bernoulli(rng, p) == 1
    }
}
