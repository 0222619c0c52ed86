"""Search bots: worlds drawn from one seat's view (:mod:`darkempire.search.worlds`) and a determinized
Monte Carlo search over the seat's own actions on the playout kernel (:mod:`darkempire.search.bot`)."""
