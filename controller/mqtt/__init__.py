"""MQTT: the table's events and state out to a broker (and Home Assistant), the bell's button in,
and a league page following many tables. Off unless ``mqtt_url`` is set.

url        mqtt:// and mqtts:// addresses, parsed into a Broker (pure)
topics     every topic and payload the table sends, and Home Assistant's discovery configs (pure)
bell       the one command the box takes: a ring request, at most one a second (pure)
cursor     where the publisher got to in the store's log, kept in a file beside the store
client     a paho client set up from a Broker, a look at what the broker keeps, and its errors said
           in one sentence
publisher  the adapter: store log -> <topic>/events (QoS 1, in order), live state -> retained topics,
           on a base topic no other newsdesk holds
league     many tables' messages folded into standings and a leaderboard (pure)
follower   the adapter feeding a League from the broker
"""
