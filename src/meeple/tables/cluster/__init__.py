"""The cluster: which server runs each table (leases, owner states), loading tables, and
forwarding a change to its owner.
"""
