/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QP_RATE_LIMITER_H
#define QP_RATE_LIMITER_H

#include "ns3/feroce-rp-fixed.h"
#include "ns3/feroce-rp.h"

namespace ns3
{

/**
 * \ingroup feroce
 * \brief The DCQCN reaction point of one queue pair, in double precision or in a firmware's
 * fixed-point arithmetic (RoceNic's FixedPointFormat).
 *
 * Times are simulation nanoseconds; the fixed-point model sees the cycle of its clock each
 * one falls in.  Rates read back in b/s (a fixed-point Rc is its register times the LSB).
 * The two models' states share their storage (a queue pair runs one of them), and the
 * parameters are the NIC's (one pointer): 192 bytes, three cache lines in an aligned queue pair.
 */
class QpRateLimiter
{
  public:
    /// The model and parameters of a NIC's queue pairs (all of them share one): `fixed` null
    /// runs the double-precision model on `rules`.
    struct Model
    {
        const feroce_rp_params* rules;
        const feroce_rp_fixed_params* fixed;
    };

    QpRateLimiter()
        : m_fl{}
    {
    }

    /// Start at line rate, in `model` (which outlives this).
    void Init(const Model* model, int64_t nowNs)
    {
        m_model = model;
        if (m_model->fixed)
        {
            m_fx = feroce_rp_fixed_state{};
            feroce_rp_fixed_init(&m_fx,
                                 m_model->fixed,
                                 feroce_rp_fixed_cycle_at(m_model->fixed, nowNs));
        }
        else
        {
            m_fl = feroce_rp_state{};
            feroce_rp_init(&m_fl, m_model->rules, nowNs);
        }
    }

    /// A CNP arrives now.
    void Cnp(int64_t nowNs)
    {
        if (const feroce_rp_fixed_params* fixed = m_model->fixed)
        {
            feroce_rp_fixed_cnp(&m_fx, fixed, feroce_rp_fixed_cycle_at(fixed, nowNs));
        }
        else
        {
            feroce_rp_cnp(&m_fl, m_model->rules, nowNs);
        }
    }

    /// The QP transmitted `bytes` now.
    void Tx(int64_t nowNs, uint64_t bytes)
    {
        if (const feroce_rp_fixed_params* fixed = m_model->fixed)
        {
            feroce_rp_fixed_tx(&m_fx, fixed, feroce_rp_fixed_cycle_at(fixed, nowNs), bytes);
        }
        else
        {
            feroce_rp_tx(&m_fl, m_model->rules, nowNs, bytes);
        }
    }

    /// Bring the state to now.
    void Advance(int64_t nowNs)
    {
        if (const feroce_rp_fixed_params* fixed = m_model->fixed)
        {
            feroce_rp_fixed_advance(&m_fx, fixed, feroce_rp_fixed_cycle_at(fixed, nowNs));
        }
        else
        {
            feroce_rp_advance(&m_fl, m_model->rules, nowNs);
        }
    }

    /// \return Rc in b/s after the last call
    double Rc() const
    {
        return m_model->fixed ? feroce_rp_fixed_bps(m_model->fixed, m_fx.cur.rc) : m_fl.cur.rc;
    }

    /// \return Rt in b/s after the last call
    double Rt() const
    {
        return m_model->fixed ? feroce_rp_fixed_bps(m_model->fixed, m_fx.cur.rt) : m_fl.cur.rt;
    }

    /// \return alpha after the last call
    double Alpha() const
    {
        return m_model->fixed ? feroce_rp_fixed_alpha_value(m_model->fixed, m_fx.cur.alpha)
                              : m_fl.cur.alpha;
    }

    /// \return the fixed-point registers, or nullptr when the double model runs
    const feroce_rp_fixed_regs* GetFixedRegisters() const
    {
        return m_model->fixed ? &m_fx.cur : nullptr;
    }

  private:
    union {
        feroce_rp_state m_fl; ///< the double-precision model's (m_model->fixed null)
        feroce_rp_fixed_state m_fx;
    };

    static inline const Model s_none{nullptr,
                                     nullptr}; ///< before Init: the double model's zero state
    const Model* m_model{&s_none};
};

} // namespace ns3

#endif /* QP_RATE_LIMITER_H */
